// The REST seam under hostile or unlucky requests: ids PostgreSQL cannot hold, a database that is
// down, cross-site requests riding the session cookie, and bodies too large to buffer.
import { beforeAll, describe, expect, it, vi } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { createApiToken } from "@/lib/server/db/tokens";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

// Outside Next there is no cookie: the test decides who the session belongs to (as in the
// authorization matrix). Everything after that is the real code.
const session = vi.hoisted(() => ({ actor: null as Actor | null }));
vi.mock("@/lib/server/auth/actor", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/server/auth/actor")>()),
  getSessionActor: async () => session.actor,
}));

const { disconnectPrisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");
const { importRecords } = await import("@/lib/server/db/imports");
const campaigns = await import("@/app/api/v1/campaigns/route");
const datasetRecords = await import("@/app/api/v1/datasets/[name]/records/route");
const runs = await import("@/app/api/v1/records/[id]/runs/route");
const adjudication = await import("@/app/api/v1/items/[id]/adjudication/route");
const annotations = await import("@/app/api/v1/items/[id]/annotations/route");

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

let admin: Actor;
let token: string;

beforeAll(async () => {
  admin = await makeUser("ADMIN", ["python"]);
  token = (await createApiToken({ actorId: null, userId: admin.id, name: "http" })).token;
});

function call<P>(handler: Handler<P>, params: P, url: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const headers = { authorization: `Bearer ${token}`, ...init.headers };
  return handler(new Request(`http://localhost:3000${url}`, { ...init, headers }), { params: Promise.resolve(params) });
}

const json = (body: unknown): RequestInit & { headers: Record<string, string> } => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("ids PostgreSQL cannot hold", () => {
  it("answers 404 for a record id beyond int4", async () => {
    const response = await call(runs.POST, { id: "99999999999" }, "/api/v1/records/99999999999/runs", json({ kind: "demo" }));
    expect(response.status).toBe(404);
  });

  it("answers 4xx, not 500, for a cursor beyond int4", async () => {
    const dataset = uniqueName("ids");
    await importRecords({ actor: admin, datasetName: dataset, source: chunks(toJsonl([makeRecord(dataset.replaceAll("-", "_"))])), skipInvalid: false, origin: "api" });
    const response = await call(datasetRecords.GET, { name: dataset }, `/api/v1/datasets/${dataset}/records?cursor=99999999999`);
    expect(response.status).toBe(422);
  });

  it("answers 4xx, not 500, for a revision number beyond int4", async () => {
    const decision = await call(adjudication.POST, { id: "no-such-item" }, "/api/v1/items/no-such-item/adjudication", json({ valid: true, reason: "r", baseRevision: 99999999999 }));
    expect(decision.status).toBe(422);
    const label = await call(annotations.POST, { id: "no-such-item" }, "/api/v1/items/no-such-item/annotations", json({ valid: true, baseRevision: 99999999999 }));
    expect(label.status).toBe(422);
  });
});

describe("a database that is down", () => {
  it("answers 503 with a clear message, then recovers", async () => {
    const url = process.env.DATABASE_URL!;
    await disconnectPrisma();
    await closePgPool();
    // Port 9 (discard) has no PostgreSQL: every connection is refused, as when the server is down.
    process.env.DATABASE_URL = "postgresql://verity@127.0.0.1:9/verity";
    try {
      const response = await call(campaigns.GET, {}, "/api/v1/campaigns");
      expect(response.status).toBe(503);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("UNAVAILABLE");
      expect(body.error.message).toMatch(/database/i);
    } finally {
      await disconnectPrisma();
      await closePgPool();
      process.env.DATABASE_URL = url;
    }
    expect((await call(campaigns.GET, {}, "/api/v1/campaigns")).status).toBe(200);
  });
});
