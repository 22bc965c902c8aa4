// The import over REST, through the real route handlers: records PostgreSQL cannot store or too deep
// to write back are 422s naming their line (never a 500), and an interrupted import reads as FAILED.
import { beforeAll, describe, expect, it } from "vitest";

import { GET as getImport } from "@/app/api/v1/imports/[id]/route";
import { GET as getRecords, POST as postRecords } from "@/app/api/v1/datasets/[name]/records/route";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { createApiToken } from "@/lib/server/users/tokens";
import { expectResponse, readResponse } from "@/lib/testing/api-response";
import { makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

let token: string;

beforeAll(async () => {
  const admin = await makeUser("ADMIN");
  token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "import-api" })).token;
});

function post(dataset: string, body: string, query = "") {
  const request = new Request(`http://localhost/api/v1/datasets/${dataset}/records${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
    body,
  });
  return postRecords(request, { params: Promise.resolve({ name: dataset }) });
}

describe("POST /api/v1/datasets/{name}/records", () => {
  it("answers 422 naming the lines with a NUL character or deep nesting, and 201 skipping them with skipInvalid", async () => {
    const dataset = uniqueName("api-nul");
    const seed = dataset.replaceAll("-", "_");
    const deep = `${JSON.stringify(makeRecord(`${seed}_c`)).slice(0, -1)},"critic_result":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const body = [
      JSON.stringify(makeRecord(`${seed}_a`)),
      JSON.stringify(makeRecord(`${seed}_b`, { tags: ["\u0000"] })),
      deep,
      JSON.stringify(makeRecord(`${seed}_d`)),
    ].join("\n");

    const rejected = await post(dataset, body);
    expect(rejected.status).toBe(422);
    // The 422 is the summary too, in the 201's shape.
    const summary = expectResponse("POST", "/datasets/{name}/records", await rejected.json()) as {
      ok: boolean;
      errors: { line: number; message: string }[];
    };
    expect(summary.ok).toBe(false);
    expect(summary.errors).toEqual([
      { line: 2, message: 'field "tags[0]" contains a NUL character (\\u0000), which cannot be stored' },
      { line: 3, message: "nested deeper than 64 levels of arrays and objects" },
    ]);

    const skipped = await post(dataset, body, "?skipInvalid=1");
    expect(skipped.status).toBe(201);
    expect(await readResponse(skipped, "POST", "/datasets/{name}/records")).toMatchObject({
      ok: true,
      imported: 2,
      skipped: 2,
    });
  });

  it("answers 422, not 500, to a file name with a NUL character", async () => {
    const response = await post(uniqueName("api-name"), toJsonl([makeRecord("apiname")]), "?fileName=a%00b.jsonl");
    expect(response.status).toBe(422);
  });
});

describe("GET /api/v1/datasets/{name}/records", () => {
  it("answers 422, not 500, to a search with a NUL character", async () => {
    const dataset = uniqueName("api-q");
    expect((await post(dataset, toJsonl([makeRecord(dataset.replaceAll("-", "_"))]))).status).toBe(201);
    const request = new Request(`http://localhost/api/v1/datasets/${dataset}/records?q=a%00b`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect((await getRecords(request, { params: Promise.resolve({ name: dataset }) })).status).toBe(422);
  });
});

describe("GET /api/v1/imports/{id}", () => {
  it("shows an import left RUNNING by a dead process as FAILED, with the reason", async () => {
    const orphan = await prisma().importJob.create({
      data: { datasetName: uniqueName("api-orphan"), source: "api", linesRead: 3000, imported: 3000 },
      select: { id: true },
    });
    const request = new Request(`http://localhost/api/v1/imports/${orphan.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const response = await getImport(request, { params: Promise.resolve({ id: orphan.id }) });
    expect(response.status).toBe(200);
    expect(await readResponse(response, "GET", "/imports/{id}")).toMatchObject({
      id: orphan.id,
      status: "FAILED",
      imported: 0,
      message: expect.stringMatching(/interrupted/),
    });
  });
});
