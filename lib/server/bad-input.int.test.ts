// Hostile or unlucky input at every door that stores text: each gets a clear 4xx (or a field
// error from a server action), never a 500. A lone surrogate ("\ud800") is not Unicode text and
// PostgreSQL refuses it; names keep to one line; two requests racing for one name get 409.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { createApiToken } from "@/lib/server/users/tokens";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { apiErrorResponseSchema } from "@/lib/validation/api-error";
import { claimResponseSchema, createdCampaignResponseSchema } from "@/lib/validation/campaigns";

// Server actions and pages read the session through getSessionActor; the test decides who is signed in.
const session = vi.hoisted(() => ({ actor: null as Actor | null }));
vi.mock("@/lib/server/auth/actor", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/server/auth/actor")>()),
  getSessionActor: async () => session.actor,
}));

const { importRecords } = await import("@/lib/server/imports/imports");
const campaignsRoute = await import("@/app/api/v1/campaigns/route");
const campaignRoute = await import("@/app/api/v1/campaigns/[id]/route");
const claimRoute = await import("@/app/api/v1/campaigns/[id]/claim/route");
const annotationsRoute = await import("@/app/api/v1/items/[id]/annotations/route");
const skipRoute = await import("@/app/api/v1/items/[id]/skip/route");
const { addCommentAction } = await import("@/app/(app)/campaigns/[id]/comments/actions");
const { createTokenAction } = await import("@/app/(app)/settings/tokens/actions");

const LONE_SURROGATE = "broken \ud800 text";

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

let admin: Actor;
let adminToken: string;
let annotator: Actor;
let annotatorToken: string;
let dataset: string;

afterAll(() => {
  session.actor = null;
});

beforeAll(async () => {
  admin = await makeUser("ADMIN", ["python"]);
  adminToken = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "bad-input" })).token;
  annotator = await makeUser("ANNOTATOR", ["python"]);
  annotatorToken = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: annotator.id, name: "bad-input" })).token;
  dataset = uniqueName("bad-input");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl([0, 1, 2, 3].map((i) => makeRecord(`b${i}_${dataset.replaceAll("-", "_")}`)))),
    skipInvalid: false,
    origin: "api",
  });
});

/** Calls a route handler with a JSON body (or none) as the owner of `token`. */
async function call<P>(handler: Handler<P>, params: P, path: string, token: string, body?: unknown) {
  const response = await handler(
    new Request(`http://localhost${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    { params: Promise.resolve(params) },
  );
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** The field errors of a failure answer, read through the API's error schema. */
const fieldErrorsOf = (body: unknown) => apiErrorResponseSchema.parse(body).error.fieldErrors;

/** A new campaign's id, read through the catalog's schema for `POST /campaigns`. */
async function createdCampaignId(name: string): Promise<string> {
  const created = await createCampaign({ name });
  expect(created.status).toBe(201);
  return createdCampaignResponseSchema.parse(created.body).id;
}

const createCampaign = (body: Record<string, unknown>) =>
  call(campaignsRoute.POST, {}, "/api/v1/campaigns", adminToken, { dataset, ...body });

async function patchCampaign(id: string, body: unknown) {
  const response = await campaignRoute.PATCH(
    new Request(`http://localhost/api/v1/campaigns/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json", authorization: `Bearer ${adminToken}` },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id }) },
  );
  return response.status;
}

describe("text PostgreSQL cannot store", () => {
  it("refuses a lone surrogate in a campaign name with 422", async () => {
    const created = await createCampaign({ name: LONE_SURROGATE });
    expect(created.status).toBe(422);
    expect(fieldErrorsOf(created.body)?.name?.[0]).toMatch(/surrogate/);
  });

  it("refuses a lone surrogate in a label note and a skip reason with 422", async () => {
    const id = await createdCampaignId(uniqueName("surrogate"));
    const claimed = await call(claimRoute.POST, { id }, `/api/v1/campaigns/${id}/claim`, annotatorToken, {});
    expect(claimed.status).toBe(200);
    const itemId = claimResponseSchema.parse(claimed.body).item.id;
    const labelled = await call(
      annotationsRoute.POST,
      { id: itemId },
      `/api/v1/items/${itemId}/annotations`,
      annotatorToken,
      {
        valid: false,
        categories: ["other"],
        note: LONE_SURROGATE,
      },
    );
    expect(labelled.status).toBe(422);
    expect(fieldErrorsOf(labelled.body)?.note?.[0]).toMatch(/surrogate/);
    const skipped = await call(skipRoute.POST, { id: itemId }, `/api/v1/items/${itemId}/skip`, annotatorToken, {
      reason: LONE_SURROGATE,
    });
    expect(skipped.status).toBe(422);
    expect(await prisma().annotation.count({ where: { itemId } })).toBe(0);
  });

  it("refuses a lone surrogate in a comment and a token name as a field error", async () => {
    session.actor = annotator;
    const comment = await addCommentAction({ itemId: "no-such-item", body: LONE_SURROGATE });
    expect(comment).toMatchObject({
      ok: false,
      code: "INVALID_INPUT",
      fieldErrors: { body: [expect.stringMatching(/surrogate/)] },
    });
    const token = await createTokenAction({ name: LONE_SURROGATE });
    expect(token).toMatchObject({
      ok: false,
      code: "INVALID_INPUT",
      fieldErrors: { name: [expect.stringMatching(/surrogate/)] },
    });
    expect(await prisma().apiToken.count({ where: { userId: annotator.id } })).toBe(1);
  });
});

describe("campaign names and taxonomies", () => {
  it("refuses a name with a line break", async () => {
    for (const name of ["two\nlines", "carriage\rreturn", "tab\tand bell\u0007"]) {
      const created = await createCampaign({ name });
      expect(created.status, JSON.stringify(name)).toBe(422);
      expect(fieldErrorsOf(created.body)?.name?.[0]).toMatch(/one line/);
    }
  });

  it("refuses duplicate category keys with 422, naming the key", async () => {
    const category = { key: "twice", label: "Twice", description: "", invalidating: true, criticRule: null };
    const created = await createCampaign({
      name: uniqueName("dupe"),
      categories: [category, { ...category, label: "Again" }],
    });
    expect(created.status).toBe(422);
    expect(fieldErrorsOf(created.body)?.categories?.[0]).toMatch(/twice/);
  });

  it("answers 409 to the loser of two simultaneous creates with one name", async () => {
    for (let round = 0; round < 5; round++) {
      const name = uniqueName("race");
      const statuses = (await Promise.all([createCampaign({ name }), createCampaign({ name })])).map((r) => r.status);
      expect(statuses.sort(), `round ${round}`).toEqual([201, 409]);
    }
  });

  it("answers 409 to the loser of two simultaneous renames to one name", async () => {
    for (let round = 0; round < 5; round++) {
      const first = await createdCampaignId(uniqueName("rename-a"));
      const second = await createdCampaignId(uniqueName("rename-b"));
      const name = uniqueName("renamed");
      const statuses = await Promise.all([patchCampaign(first, { name }), patchCampaign(second, { name })]);
      expect(statuses.sort(), `round ${round}`).toEqual([200, 409]);
    }
  });
});

describe("the audit page's filters", () => {
  it("shows the page, not a 500, for filters holding a NUL byte", async () => {
    session.actor = admin;
    const { default: AuditPage } = await import("@/app/(app)/admin/audit/page");
    for (const searchParams of [{ actor: "a\u0000b" }, { campaign: "c\u0000" }, { before: "\u0000" }])
      await expect(AuditPage({ searchParams: Promise.resolve(searchParams) })).resolves.toBeTruthy();
  });
});
