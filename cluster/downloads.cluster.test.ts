// Report and export downloads over 1 MiB, over real HTTP from a running app instance (Next.js in
// production mode): each arrives whole, with a Content-Length that matches its bytes or a chunked
// body that ends properly, and parses as what it claims to be. The campaign's labels carry long
// notes and its records long solutions, so the annotations and the verified subset are large (the
// labels, a row per item without notes, are not); its error categories, written
// straight into the database (more than a form allows), make the report large.
import { request as httpRequest } from "node:http";

import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";

import { callApi, importDataset, instanceA, makePerson, type Person, pythonRecords } from "./support";

const MIB = 1024 * 1024;
const ITEMS = 120;
const CATEGORIES = 14_000;

let admin: Person;
let campaignId: string;
let dataset: string;

type Download = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  isComplete: boolean;
};

/** A GET read with Node's HTTP client, which knows whether the body ended as its framing said. */
function download(path: string): Promise<Download> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${instanceA}/api/v1${path}`, { headers: { authorization: `Bearer ${admin.token}` } });
    request.on("error", reject);
    request.on("response", (response) => {
      const parts: Buffer[] = [];
      response.on("data", (chunk: Buffer) => parts.push(chunk));
      response.on("error", reject);
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(parts),
          isComplete: response.complete,
        }),
      );
    });
    request.end();
  });
}

function expectWhole(answer: Download, minimumBytes: number): string {
  expect(answer.status, answer.body.toString().slice(0, 300)).toBe(200);
  expect(answer.isComplete).toBe(true);
  const length = answer.headers["content-length"];
  if (length === undefined) expect(answer.headers["transfer-encoding"]).toBe("chunked");
  else expect(Number(length)).toBe(answer.body.length);
  expect(answer.body.length).toBeGreaterThan(minimumBytes);
  console.info(`[cluster] ${answer.body.length} bytes, ${length === undefined ? "chunked" : "Content-Length"}`);
  return answer.body.toString("utf8");
}

beforeAll(async () => {
  admin = await makePerson("ADMIN", { languages: [] });
  const annotator = await makePerson("ANNOTATOR");
  const padding = `# ${"a long comment that makes the record large ".repeat(220)}\n`;
  dataset = await importDataset(
    instanceA,
    admin,
    pythonRecords(ITEMS, `downloads${Date.now()}`, (_, seed) => ({
      canonical_solution: `${padding}def add_${seed}(a, b):\n    return a + b\n`,
    })),
  );
  const created = await callApi<{ id: string }>(instanceA, admin.token, "POST", "/campaigns", {
    dataset,
    name: dataset,
    overlap: 1,
    languages: ["python"],
  });
  expect(created.status).toBe(201);
  campaignId = created.body.id;
  const note = "n".repeat(9_500);
  for (;;) {
    const claim = await callApi<{ item: { id: string } | null }>(
      instanceA,
      annotator.token,
      "POST",
      `/campaigns/${campaignId}/claim`,
    );
    if (claim.status === 204) break;
    expect(claim.status).toBe(200);
    expect(claim.body.item).not.toBeNull();
    const submit = await callApi(instanceA, annotator.token, "POST", `/items/${claim.body.item!.id}/annotations`, {
      valid: true,
      categories: [],
      note,
      activeMs: 1000,
    });
    expect(submit.status).toBe(201);
  }
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO "ErrorCategory" (id, "campaignId", key, label, description, invalidating, position)
       SELECT 'download-' || $1 || '-' || n, $1, 'download-' || n, 'Download category number ' || n, '', true, 1000 + n
       FROM generate_series(1, $2::int) AS n`,
      [campaignId, CATEGORIES],
    );
  } finally {
    await client.end();
  }
});

describe("downloads over 1 MiB through a running instance", () => {
  it("sends the campaign and dataset reports whole, in JSON, CSV and Markdown", async () => {
    const json = expectWhole(await download(`/campaigns/${campaignId}/report?format=json`), MIB);
    expect((JSON.parse(json) as { byCategory: unknown[] }).byCategory.length).toBeGreaterThan(CATEGORIES);
    const datasetJson = expectWhole(await download(`/datasets/${dataset}/report?format=json`), MIB);
    expect((JSON.parse(datasetJson) as { byCategory: unknown[] }).byCategory.length).toBeGreaterThan(CATEGORIES);
    // A row per language: small, yet framed as well.
    expect(expectWhole(await download(`/campaigns/${campaignId}/report?format=csv`), 10)).toMatch(/python/i);
    expect(expectWhole(await download(`/campaigns/${campaignId}/report?format=md`), 10)).toMatch(/python/i);
  });

  it("sends the exports whole, in JSONL and CSV", async () => {
    // Labels are a row per item without notes: small, yet framed as well.
    const sizes = { labels: 10_000, annotations: MIB, verified: MIB };
    for (const what of ["labels", "annotations", "verified"] as const) {
      const lines = expectWhole(await download(`/campaigns/${campaignId}/export?what=${what}`), sizes[what])
        .trimEnd()
        .split("\n");
      expect(lines, what).toHaveLength(ITEMS);
      for (const line of lines) JSON.parse(line);
    }
    const labels = expectWhole(await download(`/campaigns/${campaignId}/export?what=labels&format=csv`), 10_000);
    expect(labels.trimEnd().split("\n"), "labels").toHaveLength(ITEMS + 1);
    const annotations = expectWhole(await download(`/campaigns/${campaignId}/export?what=annotations&format=csv`), MIB);
    // A row per label: every note is whole.
    expect(annotations.match(/n{9500}/g), "annotations").toHaveLength(ITEMS);
  });
});
