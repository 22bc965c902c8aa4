// The REST seam under hostile or unlucky requests: ids PostgreSQL cannot hold, a database that is
// down, cross-site requests riding the session cookie, and bodies too large to buffer.
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createApiToken } from "@/lib/server/users/tokens";
import { readResponse } from "@/lib/testing/api-response";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { setEnv } from "@/lib/testing/env";

// Outside Next there is no cookie: the test decides whose session the request carries. Everything
// after next-auth's session lookup (the actor, scope checks, the route) is the real code.
const session = vi.hoisted(() => ({ actor: null as { id: string } | null }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: async () => (session.actor ? { userId: session.actor.id } : null),
}));

// The origin cookie-authenticated writes must come from (put back after this file).
const previousPublicUrl = process.env.VERITY_PUBLIC_URL;
setEnv({ VERITY_PUBLIC_URL: "http://verity.test:8080" });
const PUBLIC_ORIGIN = "http://verity.test:8080";

const { disconnectPrisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");
const { importRecords } = await import("@/lib/server/imports/imports");
const campaigns = await import("@/app/api/v1/campaigns/route");
const datasetRecords = await import("@/app/api/v1/datasets/[name]/records/route");
const runs = await import("@/app/api/v1/records/[id]/runs/route");
const adjudication = await import("@/app/api/v1/items/[id]/adjudication/route");
const annotations = await import("@/app/api/v1/items/[id]/annotations/route");
const auth = await import("@/app/api/auth/[...nextauth]/route");
const { listCampaigns } = await import("@/lib/server/campaigns/list-campaigns");
const { listDatasets } = await import("@/lib/server/records/records");

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

let admin: Actor;
let token: string;

afterAll(() => {
  if (previousPublicUrl === undefined) setEnv({ VERITY_PUBLIC_URL: undefined });
  else setEnv({ VERITY_PUBLIC_URL: previousPublicUrl });
});

beforeAll(async () => {
  admin = await makeUser("ADMIN", ["python"]);
  token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "http" })).token;
});

type Init = RequestInit & { headers?: Record<string, string> };

/** Calls a route handler with the admin's API token. */
function call<P>(handler: Handler<P>, params: P, url: string, init: Init = {}) {
  const headers = { authorization: `Bearer ${token}`, ...init.headers };
  return handler(new Request(`${PUBLIC_ORIGIN}${url}`, { ...init, headers }), { params: Promise.resolve(params) });
}

/** Calls a route handler as the browser would with the admin's session cookie (no token). */
function callWithCookie<P>(handler: Handler<P>, params: P, url: string, init: Init = {}) {
  session.actor = admin;
  return handler(new Request(`${PUBLIC_ORIGIN}${url}`, { ...init, duplex: "half" } as RequestInit), {
    params: Promise.resolve(params),
  }).finally(() => {
    session.actor = null;
  });
}

async function makeDataset(): Promise<string> {
  const dataset = uniqueName("http");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl([makeRecord(dataset.replaceAll("-", "_"))])),
    skipInvalid: false,
    origin: "api",
  });
  return dataset;
}

/** A body of `total` bytes streamed in 64 KiB chunks, with no Content-Length; counts what was pulled. */
function streamedBody(total: number) {
  const pulled = { bytes: 0 };
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) return controller.close();
      pulled.bytes += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled };
}

const json = (body: unknown): RequestInit & { headers: Record<string, string> } => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

describe("ids PostgreSQL cannot hold", () => {
  it("answers 404 for a record id beyond int4", async () => {
    const response = await call(
      runs.POST,
      { id: "99999999999" },
      "/api/v1/records/99999999999/runs",
      json({ kind: "demo" }),
    );
    expect(response.status).toBe(404);
  });

  it("answers 4xx, not 500, for a cursor beyond int4", async () => {
    const dataset = await makeDataset();
    const response = await call(
      datasetRecords.GET,
      { name: dataset },
      `/api/v1/datasets/${dataset}/records?cursor=99999999999`,
    );
    expect(response.status).toBe(422);
  });

  it("answers 4xx, not 500, for a revision number beyond int4", async () => {
    const decision = await call(
      adjudication.POST,
      { id: "no-such-item" },
      "/api/v1/items/no-such-item/adjudication",
      json({ valid: true, reason: "r", baseRevision: 99999999999 }),
    );
    expect(decision.status).toBe(422);
    const label = await call(
      annotations.POST,
      { id: "no-such-item" },
      "/api/v1/items/no-such-item/annotations",
      json({ valid: true, baseRevision: 99999999999 }),
    );
    expect(label.status).toBe(422);
  });
});

describe("ids no row can have", () => {
  it("answers 404, not 500, for ids and names holding a NUL byte", async () => {
    const item = await call(
      adjudication.POST,
      { id: "a\u0000b" },
      "/api/v1/items/a%00b/adjudication",
      json({ valid: true, reason: "r" }),
    );
    expect(item.status).toBe(404);
    const dataset = await call(datasetRecords.GET, { name: "a%00b" }, "/api/v1/datasets/a%00b/records");
    expect(dataset.status).toBe(404);
  });

  it("answers 422, not 500, for text to store holding a NUL byte", async () => {
    const dataset = await makeDataset();
    const response = await call(campaigns.POST, {}, "/api/v1/campaigns", json({ dataset, name: "nul\u0000name" }));
    expect(response.status).toBe(422);
  });
});

describe("a database that is down", () => {
  // Port 9 (discard) has no PostgreSQL: every TCP connection is refused. A socket folder with no
  // socket in it is what the embedded PostgreSQL leaves when it is stopped (ENOENT on connect).
  const DOWN = {
    "over TCP": "postgresql://verity@127.0.0.1:9/verity",
    "over its unix socket": `postgresql://verity@localhost:54329/verity?host=${encodeURIComponent("/tmp/verity-stopped-postgres")}`,
  };
  for (const [how, downUrl] of Object.entries(DOWN)) {
    it(`answers 503 with a clear message ${how}, then recovers`, async () => {
      const url = process.env.DATABASE_URL!;
      await disconnectPrisma();
      await closePgPool();
      setEnv({ DATABASE_URL: downUrl });
      try {
        const response = await call(campaigns.GET, {}, "/api/v1/campaigns");
        expect(response.status).toBe(503);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe("UNAVAILABLE");
        expect(body.error.message).toMatch(/database/i);
      } finally {
        await disconnectPrisma();
        await closePgPool();
        setEnv({ DATABASE_URL: url });
      }
      const recovered = await call(campaigns.GET, {}, "/api/v1/campaigns");
      expect(recovered.status).toBe(200);
      await readResponse(recovered, "GET", "/campaigns");
    });
  }
});

describe("cross-site requests riding the session cookie (CSRF)", () => {
  // What an HTML form on another port of the same host can send: text/plain that happens to be JSON.
  const formPost = (dataset: string, name: string, headers: Record<string, string>): Init => ({
    method: "POST",
    headers: { "content-type": "text/plain", ...headers },
    body: `{"dataset":"${dataset}","name":"${name}","pad":"="}`,
  });

  it("refuses a form posted from another origin and creates nothing", async () => {
    const dataset = await makeDataset();
    const name = uniqueName("csrf");
    const response = await callWithCookie(
      campaigns.POST,
      {},
      "/api/v1/campaigns",
      formPost(dataset, name, { origin: "http://verity.test:9999", "sec-fetch-site": "same-site" }),
    );
    expect(response.status).toBe(403);
    expect((await listCampaigns({ actor: admin })).map((campaign) => campaign.name)).not.toContain(name);
  });

  it("refuses a cookie write with no Origin and no Sec-Fetch-Site", async () => {
    const dataset = await makeDataset();
    const response = await callWithCookie(campaigns.POST, {}, "/api/v1/campaigns", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ dataset, name: uniqueName("csrf") }),
    });
    expect(response.status).toBe(403);
  });

  it("refuses a same-origin cookie write whose body is not declared JSON (415)", async () => {
    const dataset = await makeDataset();
    const response = await callWithCookie(
      campaigns.POST,
      {},
      "/api/v1/campaigns",
      formPost(dataset, uniqueName("csrf"), { origin: PUBLIC_ORIGIN }),
    );
    expect(response.status).toBe(415);
  });

  it("accepts the app's own JSON requests: Origin equal to the public URL, or Sec-Fetch-Site same-origin", async () => {
    const dataset = await makeDataset();
    const byOrigin = await callWithCookie(campaigns.POST, {}, "/api/v1/campaigns", {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", origin: PUBLIC_ORIGIN },
      body: JSON.stringify({ dataset, name: uniqueName("own") }),
    });
    expect(byOrigin.status).toBe(201);
    await readResponse(byOrigin, "POST", "/campaigns");
    const byFetchMetadata = await callWithCookie(campaigns.POST, {}, "/api/v1/campaigns", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://127.0.0.1:8080", "sec-fetch-site": "same-origin" },
      body: JSON.stringify({ dataset, name: uniqueName("own") }),
    });
    expect(byFetchMetadata.status).toBe(201);
    await readResponse(byFetchMetadata, "POST", "/campaigns");
  });

  it("leaves token requests alone: no Origin needed, any content type parsed", async () => {
    const dataset = await makeDataset();
    const response = await call(campaigns.POST, {}, "/api/v1/campaigns", formPost(dataset, uniqueName("token"), {}));
    expect(response.status).toBe(201);
    await readResponse(response, "POST", "/campaigns");
  });

  it("protects the upload (not JSON) by its Origin", async () => {
    const record = JSON.stringify(makeRecord(uniqueName("up").replaceAll("-", "_")));
    const crossSite = uniqueName("upload");
    const refused = await callWithCookie(
      datasetRecords.POST,
      { name: crossSite },
      `/api/v1/datasets/${crossSite}/records`,
      { method: "POST", headers: { "content-type": "text/plain", origin: "http://verity.test:9999" }, body: record },
    );
    expect(refused.status).toBe(403);
    expect((await listDatasets({ actor: admin })).map((dataset) => dataset.name)).not.toContain(crossSite);
    const own = uniqueName("upload");
    const accepted = await callWithCookie(datasetRecords.POST, { name: own }, `/api/v1/datasets/${own}/records`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream", "sec-fetch-site": "same-origin" },
      body: record,
    });
    expect(accepted.status).toBe(201);
    expect(await readResponse(accepted, "POST", "/datasets/{name}/records")).toMatchObject({ ok: true, imported: 1 });
  });
});

describe("request size limits", () => {
  it("refuses a JSON body whose Content-Length is over the limit without reading it", async () => {
    const { stream, pulled } = streamedBody(150 * 1024 * 1024);
    const response = await call(campaigns.POST, {}, "/api/v1/campaigns", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(150 * 1024 * 1024) },
      body: stream,
      duplex: "half",
    } as Init);
    expect(response.status).toBe(413);
    expect(pulled.bytes).toBeLessThanOrEqual(256 * 1024);
  });

  it("stops reading a JSON body that streams past the limit", async () => {
    const { stream, pulled } = streamedBody(150 * 1024 * 1024);
    const response = await call(campaigns.POST, {}, "/api/v1/campaigns", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as Init);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(pulled.bytes).toBeLessThan(8 * 1024 * 1024);
  });

  it("caps the sign-in routes' bodies", async () => {
    const { stream, pulled } = streamedBody(150 * 1024 * 1024);
    const request = new NextRequest(`${PUBLIC_ORIGIN}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: stream,
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    const response = await auth.POST(request, { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) });
    expect(response.status).toBe(413);
    expect(pulled.bytes).toBeLessThan(1024 * 1024);
  });

  it("refuses an import over VERITY_IMPORT_MAX_MB, declared or streamed, and imports nothing", async () => {
    setEnv({ VERITY_IMPORT_MAX_MB: "1" });
    try {
      const declared = uniqueName("big");
      const byLength = await call(datasetRecords.POST, { name: declared }, `/api/v1/datasets/${declared}/records`, {
        method: "POST",
        headers: { "content-length": String(2 * 1024 * 1024) },
        body: streamedBody(2 * 1024 * 1024).stream,
        duplex: "half",
      } as Init);
      expect(byLength.status).toBe(413);
      const streamed = uniqueName("big");
      const line = `${JSON.stringify(makeRecord(streamed.replaceAll("-", "_")))}\n`;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const bytes = new TextEncoder().encode(line.repeat(Math.ceil((3 * 1024 * 1024) / line.length)));
          controller.enqueue(bytes);
          controller.close();
        },
      });
      const byStream = await call(
        datasetRecords.POST,
        { name: streamed },
        `/api/v1/datasets/${streamed}/records?skipInvalid=1`,
        { method: "POST", body, duplex: "half" } as Init,
      );
      expect(byStream.status).toBe(413);
      const names = (await listDatasets({ actor: admin })).map((dataset) => dataset.name);
      expect(names).not.toContain(declared);
      expect(names).not.toContain(streamed);
    } finally {
      setEnv({ VERITY_IMPORT_MAX_MB: undefined });
    }
  });
});
