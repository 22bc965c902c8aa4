// The authorization matrix: every /api/v1 route handler and every server action, called as each
// role and signed out, must allow exactly what the permission table says. The expected scope of a
// route comes from the API catalog (itself checked against the route files); the expected scope of
// an action comes from ACTIONS below, and an action missing from it fails the test. Below the scope
// matrix, the rules finer than a scope: blind mode (whose critic each caller reads) and lease
// ownership (who may label an item), through the same route handlers.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

import { beforeAll, describe, expect, it, vi } from "vitest";

import { API_OPERATIONS } from "@/lib/api/catalog";
import type { Role } from "@/lib/generated/prisma/enums";
import { type Actor, can, ROLES, type Scope, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { createApiToken } from "@/lib/server/users/tokens";
import { expectResponse } from "@/lib/testing/api-response";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

// Server actions read the session through getSessionActor; outside Next there is no request, so the
// test decides who is signed in. Everything after that (scope checks, parsing) is the real code.
const session = vi.hoisted(() => ({ actor: null as Actor | null }));
vi.mock("@/lib/server/auth/actor", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/server/auth/actor")>()),
  getSessionActor: async () => session.actor,
}));
// Pages read the request's headers through next/headers; the test decides what the browser sent.
const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/headers")>()),
  headers: async () => request.headers,
}));

/** Every exported server action, keyed "file#export", with the scope it must require ("public": anyone). */
const ACTIONS: Record<string, Scope | "public"> = {
  "app/signin/actions.ts#createFirstAdminAction": "public",
  "app/invite/[token]/actions.ts#acceptInvitationAction": "public",
  "app/(app)/admin/users/actions.ts#inviteUserAction": "users:admin",
  "app/(app)/admin/users/actions.ts#updateUserAccessAction": "users:admin",
  "app/(app)/admin/users/actions.ts#setUserDisabledAction": "users:admin",
  "app/(app)/admin/users/actions.ts#revokeUserTokenAction": "users:admin",
  "app/(app)/admin/users/actions.ts#resendInvitationAction": "users:admin",
  "app/(app)/admin/users/actions.ts#revokeInvitationAction": "users:admin",
  "app/(app)/settings/tokens/actions.ts#createTokenAction": "tokens:write",
  "app/(app)/settings/tokens/actions.ts#revokeTokenAction": "tokens:write",
  "app/(app)/campaigns/actions.ts#createCampaignAction": "campaigns:admin",
  "app/(app)/campaigns/actions.ts#updateCampaignSettingsAction": "campaigns:admin",
  "app/(app)/campaigns/actions.ts#changeCampaignStatusAction": "campaigns:admin",
  "app/(app)/campaigns/actions.ts#deleteCampaignAction": "campaigns:admin",
  "app/(app)/campaigns/actions.ts#updateCampaignGuidelinesAction": "campaigns:admin",
  "app/(app)/campaigns/actions.ts#extendCampaignAction": "campaigns:admin",
  "app/(app)/campaigns/actions.ts#reorderCategoriesAction": "campaigns:admin",
  "app/(app)/campaigns/[id]/review/actions.ts#adjudicateAction": "reviews:write",
  "app/(app)/campaigns/[id]/next/actions.ts#claimNextItemAction": "labels:write",
  "app/(app)/campaigns/[id]/items/[itemId]/actions.ts#submitLabelAction": "labels:write",
  "app/(app)/campaigns/[id]/items/[itemId]/actions.ts#skipItemAction": "labels:write",
  "app/(app)/campaigns/[id]/items/[itemId]/actions.ts#renewLeaseAction": "labels:write",
  "app/(app)/campaigns/[id]/comments/actions.ts#addCommentAction": "comments:write",
  "app/(app)/campaigns/[id]/comments/actions.ts#markCommentsReadAction": "comments:write",
  "app/(app)/admin/sandbox/actions.ts#recheckSandboxAction": "sandbox:admin",
  "app/(app)/admin/import/actions.ts#previewImportAction": "imports:write",
  "app/(app)/records/actions.ts#setGoldAnswerAction": "gold:write",
  "app/(app)/records/actions.ts#clearGoldAnswerAction": "gold:write",
  "app/(app)/datasets/actions.ts#importGoldAnswersAction": "gold:write",
  "app/(app)/records/actions.ts#runRecordAction": "sandbox:run",
  "app/(app)/records/actions.ts#proposeRevisionAction": "revisions:write",
  "app/(app)/repairs/actions.ts#checkRevisionAction": "revisions:check",
  "app/(app)/records/actions.ts#checkFlakinessAction": "datasets:verify",
  "app/(app)/datasets/actions.ts#startVerificationAction": "datasets:verify",
  "app/(app)/datasets/actions.ts#setDatasetHarnessAction": "datasets:verify",
  "app/(app)/datasets/[name]/environment/actions.ts#buildEnvironmentAction": "datasets:verify",
  "app/(app)/datasets/[name]/environment/actions.ts#environmentLogAction": "datasets:verify",
  "app/(app)/datasets/actions.ts#verificationProgressAction": "records:read",
  "app/(app)/datasets/actions.ts#startEvidenceAction": "datasets:verify",
  "app/(app)/datasets/actions.ts#evidenceProgressAction": "records:read",
  "app/(app)/critics/actions.ts#saveCriticAction": "critics:admin",
  "app/(app)/critics/actions.ts#startCriticRunAction": "critics:admin",
  "app/(app)/critics/actions.ts#controlCriticRunAction": "critics:admin",
  "app/(app)/critics/actions.ts#criticRunProgressAction": "critics:read",
  "app/(app)/datasets/actions.ts#importSolutionsAction": "imports:write",
  "app/(app)/datasets/actions.ts#solutionRunProgressAction": "records:read",
  "app/(app)/datasets/actions.ts#cutReleaseAction": "releases:write",
  "app/(app)/jobs/actions.ts#controlJobAction": "records:read",
};

const routeModules = import.meta.glob<
  Record<string, (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>>
>("/app/api/v1/**/route.ts");
const actionModules = import.meta.glob<Record<string, (input: unknown) => Promise<{ ok: boolean; code?: string }>>>(
  "/app/**/actions.ts",
);

function files(dir: string, name: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? files(path, name) : entry === name ? [path] : [];
  });
}

const tokens: Partial<Record<Role, string>> = {};
const actors: Partial<Record<Role, Actor>> = {};

beforeAll(async () => {
  for (const role of ROLES) {
    actors[role] = await makeUser(role, ["python"]);
    tokens[role] = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: actors[role]!.id, name: "matrix" })).token;
  }
});

async function callRoute(method: string, path: string, token: string | null): Promise<number> {
  const file = `/app/api/v1${path.replace(/\{(\w+)\}/g, "[$1]")}/route.ts`;
  const load = routeModules[file];
  if (!load) throw new Error(`no route module for ${path}`);
  const handler = (await load())[method];
  const params = Object.fromEntries(
    [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, name === "name" ? "matrix-no-such-dataset" : "999999"]),
  );
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  const request = new Request(`http://localhost/api/v1${path}`, {
    method,
    headers,
    ...(method === "POST" || method === "PATCH" ? { body: "{}" } : {}),
  });
  const response = await handler(request, { params: Promise.resolve(params) });
  return response.status;
}

describe("route handlers", () => {
  for (const operation of API_OPERATIONS) {
    it(`${operation.method} ${operation.path} requires ${operation.scope}`, async () => {
      for (const role of ROLES) {
        const status = await callRoute(operation.method, operation.path, tokens[role]!);
        if (can({ role }, operation.scope)) expect([401, 403], `${role} should be allowed`).not.toContain(status);
        else expect(status, `${role} should be denied`).toBe(403);
      }
      expect(await callRoute(operation.method, operation.path, "vty_not-a-real-token")).toBe(401);
    });
  }
});

/** Routes outside the catalog, open to anyone on purpose. */
const PUBLIC_ROUTES = ["/api/health", "/api/auth/[...nextauth]", "/api/v1/openapi.json"];

describe("public routes", () => {
  it("every route file is either in the API catalog or listed as public", () => {
    const catalogued = new Set(
      API_OPERATIONS.map((operation) => `/api/v1${operation.path.replace(/\{(\w+)\}/g, "[$1]")}`),
    );
    const routes = files(join(process.cwd(), "app", "api"), "route.ts").map(
      (file) => `/${relative(join(process.cwd(), "app"), file).replace(/\/route\.ts$/, "")}`,
    );
    expect(routes.filter((route) => !catalogued.has(route) && !PUBLIC_ROUTES.includes(route))).toEqual([]);
  });

  it("serves the OpenAPI document without a token", async () => {
    const { GET } = await import("@/app/api/v1/openapi.json/route");
    const response = GET();
    expect(response.status).toBe(200);
    expect(((await response.json()) as { openapi: string }).openapi).toBe("3.1.0");
  });
});

describe("server actions", () => {
  it("has an entry for every exported action", () => {
    const found = files(join(process.cwd(), "app"), "actions.ts").flatMap((file) => {
      const source = readFileSync(file, "utf8");
      return [...source.matchAll(/export (?:const|async function) (\w+)/g)].map(
        ([, name]) => `${relative(process.cwd(), file)}#${name}`,
      );
    });
    expect(found.sort()).toEqual(Object.keys(ACTIONS).sort());
  });

  for (const [key, scope] of Object.entries(ACTIONS)) {
    it(`${key} requires ${scope}`, async () => {
      const [file, name] = key.split("#");
      const action = (await actionModules[`/${file}`]())[name];
      // Invalid input on purpose: an allowed caller gets as far as validation, and nothing changes.
      const invalidInput = { tokenId: "", userId: "", itemId: "", token: "" };
      for (const role of [...ROLES, null]) {
        session.actor = role ? actors[role]! : null;
        const result = await action(invalidInput);
        if (scope === "public" || (role && can({ role }, scope)))
          expect(["FORBIDDEN", "UNAUTHENTICATED"], `${role} should be allowed`).not.toContain(result.code);
        else
          expect(result.code, `${role ?? "signed out"} should be denied`).toBe(role ? "FORBIDDEN" : "UNAUTHENTICATED");
      }
    });
  }
});

/** Calls a route handler with real parameters as the owner of `token`; returns the status and the parsed body. */
async function send({
  method,
  path,
  params,
  token,
  query = "",
  body,
}: {
  method: "GET" | "POST";
  path: string;
  params: Record<string, string>;
  token: string;
  query?: string;
  body?: unknown;
}) {
  const file = `/app/api/v1${path.replace(/\{(\w+)\}/g, "[$1]")}/route.ts`;
  const handler = (await routeModules[file]())[method];
  const url = `http://localhost/api/v1${path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]))}${query}`;
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
  const response = await handler(
    new Request(url, { method, headers, ...(method === "POST" ? { body: JSON.stringify(body ?? {}) } : {}) }),
    { params: Promise.resolve(params) },
  );
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  const answer = type.includes("ndjson")
    ? text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as unknown)
    : text && type.includes("json")
      ? (JSON.parse(text) as unknown)
      : text;
  // A success is what the catalog says (strict: a critic field that leaked would fail here).
  const isSuccess = response.status >= 200 && response.status < 300 && response.status !== 204;
  return { status: response.status, body: isSuccess ? expectResponse(method, path, answer) : answer };
}

describe("blind mode and lease ownership", () => {
  type Caller = { actor: Actor; token: string };
  type RecordsPage = {
    records: { id: number; critic: { overallPass: boolean | null } | null; isCriticHidden: boolean }[];
  };
  const failing = {
    critic_result: { summary: { overall_pass: false, failed_rules: ["Other Issues"], key_points: [] } },
    critic_reasoning: "The tests check output the statement never mentions.",
  };
  const label = { valid: true, categories: [] };
  let dataset = "";
  let unworkedDataset = "";
  let campaignId = "";
  const callers: Record<"ann" | "other" | "reviewer", Caller> = {} as never;

  async function caller(role: Role): Promise<Caller> {
    const actor = await makeUser(role, ["python"]);
    return {
      actor,
      token: (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: actor.id, name: "matrix" })).token,
    };
  }

  beforeAll(async () => {
    const admin = await makeUser("ADMIN");
    dataset = uniqueName("matrix-blind");
    unworkedDataset = uniqueName("matrix-unworked");
    const records = (name: string) =>
      [0, 1].map((index) => makeRecord(`m${index}_${name.replaceAll("-", "_")}`, failing));
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl(records(dataset))),
      skipInvalid: false,
      origin: "api",
    });
    await importRecords({
      actor: admin,
      datasetName: unworkedDataset,
      source: chunks(toJsonl(records(unworkedDataset))),
      skipInvalid: false,
      origin: "api",
    });
    campaignId = (
      await createCampaign({
        actor: admin,
        input: {
          dataset,
          name: uniqueName("matrix-blind"),
          overlap: 2,
          agreementFraction: 0,
          blind: true,
          finalRule: "consensus",
          leaseMinutes: 30,
        },
      })
    ).id;
    callers.ann = await caller("ANNOTATOR");
    callers.other = await caller("ANNOTATOR");
    callers.reviewer = await caller("REVIEWER");
  });

  const records = (who: Caller, query = "", name = dataset) =>
    send({ method: "GET", path: "/datasets/{name}/records", params: { name }, token: who.token, query });
  const claim = (who: Caller) =>
    send({ method: "POST", path: "/campaigns/{id}/claim", params: { id: campaignId }, token: who.token });
  const annotate = (who: Caller, itemId: string, body: unknown = label) =>
    send({ method: "POST", path: "/items/{id}/annotations", params: { id: itemId }, token: who.token, body });

  it("an annotator reads no critic of a blind item they have not labelled, in the claim, the records list or its critic filter", async () => {
    const claimed = await claim(callers.ann);
    expect(claimed.status).toBe(200);
    expect((claimed.body as { record: { critic: unknown } }).record.critic).toBeNull();
    const listed = await records(callers.ann);
    expect(listed.status).toBe(200);
    expect(
      (listed.body as RecordsPage).records.map(({ critic, isCriticHidden }) => ({ critic, isCriticHidden })),
    ).toEqual([
      { critic: null, isCriticHidden: true },
      { critic: null, isCriticHidden: true },
    ]);
    for (const critic of ["pass", "fail", "none"])
      expect((await records(callers.ann, `?critic=${critic}`)).body).toMatchObject({ records: [] });
    // A reviewer holding nothing reads the verdicts.
    expect((await records(callers.reviewer)).body).toMatchObject({
      records: [{ critic: { overallPass: false } }, { critic: { overallPass: false } }],
    });
    expect(((await records(callers.reviewer, "?critic=fail")).body as RecordsPage).records).toHaveLength(2);
  });

  it("an annotator reads no records of a dataset with no campaign in their languages", async () => {
    expect((await records(callers.ann, "", unworkedDataset)).status).toBe(404);
    expect(
      (await send({ method: "GET", path: "/datasets", params: {}, token: callers.ann.token })).body,
    ).not.toContainEqual(expect.objectContaining({ name: unworkedDataset }));
    expect((await records(callers.reviewer, "", unworkedDataset)).status).toBe(200);
  });

  it("the critic-and-execution filter reads the critic: annotators are refused (403); a reviewer finds the records", async () => {
    // The critic failed both records; their canonical solutions passing makes the two disagree.
    await prisma().record.updateMany({ where: { dataset: { name: dataset } }, data: { executableValid: true } });
    try {
      expect((await records(callers.ann, "?evidence=critic_vs_execution")).status).toBe(403);
      expect((await records(callers.ann, "?evidence=weak_tests")).status).toBe(200);
      expect(
        ((await records(callers.reviewer, "?evidence=critic_vs_execution")).body as RecordsPage).records,
      ).toHaveLength(2);
    } finally {
      await prisma().record.updateMany({ where: { dataset: { name: dataset } }, data: { executableValid: null } });
    }
  });

  it("accepts a label only from the item's holder, never on an item never claimed or skipped", async () => {
    const items = await prisma().campaignItem.findMany({
      where: { campaignId },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    const held = (
      await prisma().assignment.findFirstOrThrow({
        where: { userId: callers.ann.actor.id, status: "ACTIVE" },
        select: { itemId: true },
      })
    ).itemId;
    const notHeld = items.find((item) => item.id !== held)!.id;
    // Another annotator cannot label the held item, nor an item they never claimed.
    expect((await annotate(callers.other, held)).status).toBe(404);
    expect((await annotate(callers.other, notHeld)).status).toBe(404);
    expect((await annotate(callers.ann, notHeld)).status).toBe(404);
    // After a skip, the item is no longer the skipper's to label.
    expect(
      (
        await send({
          method: "POST",
          path: "/items/{id}/skip",
          params: { id: held },
          token: callers.ann.token,
          body: { reason: "unsure" },
        })
      ).status,
    ).toBe(204);
    expect((await annotate(callers.ann, held)).status).toBe(409);
    // Claimed items are labelled, and one's own label can be revised.
    const next = await claim(callers.ann);
    const nextId = (next.body as { item: { id: string } }).item.id;
    expect(nextId).toBe(notHeld);
    expect((await annotate(callers.ann, nextId)).status).toBe(201);
    expect(
      (
        await annotate(callers.ann, nextId, {
          valid: false,
          categories: ["other"],
          note: "second look",
          baseRevision: 1,
        })
      ).status,
    ).toBe(200);
    expect(await prisma().annotation.count({ where: { item: { campaignId } } })).toBe(1);
    // Labelled, the annotator reads that record's critic; the skipped one is visible too (no longer theirs to label).
    expect(
      ((await records(callers.ann)).body as RecordsPage).records.every(
        (record) => record.critic?.overallPass === false,
      ),
    ).toBe(true);
  });

  it("the workspace's actions hold to the same lease ownership as the routes", async () => {
    const workspace = await actionModules["/app/(app)/campaigns/[id]/items/[itemId]/actions.ts"]();
    const holder = await caller("ANNOTATOR");
    const held = ((await claim(holder)).body as { item: { id: string } }).item.id;
    const before = await prisma().annotation.count({ where: { item: { campaignId } } });
    session.actor = callers.other.actor;
    expect(await workspace.submitLabelAction({ itemId: held, ...label })).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await workspace.skipItemAction({ itemId: held, reason: "not mine" })).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await workspace.renewLeaseAction({ itemId: held })).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await prisma().annotation.count({ where: { item: { campaignId } } })).toBe(before);
    expect(await prisma().assignment.count({ where: { userId: callers.other.actor.id, item: { campaignId } } })).toBe(
      0,
    );
    // The holder's own renewal goes through the same action.
    session.actor = holder.actor;
    expect(await workspace.renewLeaseAction({ itemId: held })).toMatchObject({ ok: true });
  });

  it("a reviewer holding a blind item reads no critic of it, in the records list or the export", async () => {
    const claimed = await claim(callers.reviewer);
    expect(claimed.status).toBe(200);
    const heldRecord = (claimed.body as { record: { id: number; critic: unknown } }).record;
    expect(heldRecord.critic).toBeNull();
    const listed = (await records(callers.reviewer)).body as RecordsPage;
    expect(listed.records.map((record) => [record.id, record.critic === null])).toEqual(
      listed.records.map((record) => [record.id, record.id === heldRecord.id]),
    );
    const exported = await send({
      method: "GET",
      path: "/campaigns/{id}/export",
      params: { id: campaignId },
      token: callers.reviewer.token,
      query: "?what=labels",
    });
    expect(exported.status).toBe(200);
    const rows = exported.body as { record_key: string; critic_pass: boolean | null }[];
    const heldKey = (await prisma().record.findUniqueOrThrow({ where: { id: heldRecord.id }, select: { key: true } }))
      .key;
    expect(rows.map((row) => [row.record_key, row.critic_pass])).toEqual(
      rows.map((row) => [row.record_key, row.record_key === heldKey ? null : false]),
    );
  });
});

describe("claiming is a write, also through GET /campaigns/{id}/next", () => {
  // What a browser sends for each way of reaching the page (Fetch Metadata).
  const ARRIVALS: Record<string, Record<string, string>> = {
    "an <img> on another port of the same host": {
      "sec-fetch-site": "same-site",
      "sec-fetch-dest": "image",
      "sec-fetch-mode": "no-cors",
    },
    "a link on another site": {
      "sec-fetch-site": "cross-site",
      "sec-fetch-dest": "document",
      "sec-fetch-mode": "navigate",
    },
    "an <img> in a record's statement": {
      "sec-fetch-site": "same-origin",
      "sec-fetch-dest": "image",
      "sec-fetch-mode": "no-cors",
    },
    "the router's prefetch": {
      "sec-fetch-site": "same-origin",
      "sec-fetch-dest": "empty",
      "next-router-prefetch": "1",
    },
    "a client with no Fetch Metadata (a script with the cookie)": {},
  };
  const DELIBERATE: Record<string, Record<string, string>> = {
    "a link in the app": { "sec-fetch-site": "same-origin", "sec-fetch-dest": "empty", "sec-fetch-mode": "cors" },
    "the address typed by the user": {
      "sec-fetch-site": "none",
      "sec-fetch-dest": "document",
      "sec-fetch-mode": "navigate",
    },
  };

  async function openNext(campaignId: string, sent: Record<string, string>): Promise<string | null> {
    request.headers = new Headers(sent);
    const { default: NextItemPage } = await import("@/app/(app)/campaigns/[id]/next/page");
    try {
      await NextItemPage({ params: Promise.resolve({ id: campaignId }) });
      return null;
    } catch (error) {
      // redirect() throws; its digest holds the address ("NEXT_REDIRECT;replace;/campaigns/…;307;").
      const digest = (error as { digest?: string }).digest ?? "";
      if (!digest.startsWith("NEXT_REDIRECT")) throw error;
      return digest.split(";")[2];
    }
  }

  it("takes a lease only when the user navigated there from the app; the button's action claims", async () => {
    const admin = await makeUser("ADMIN");
    const dataset = uniqueName("matrix-get-claim");
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl([0, 1, 2].map((i) => makeRecord(`g${i}_${dataset.replaceAll("-", "_")}`)))),
      skipInvalid: false,
      origin: "api",
    });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("matrix-get-claim"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const leases = () => prisma().assignment.count({ where: { userId: annotator.id } });
    session.actor = annotator;

    for (const [arrival, sent] of Object.entries(ARRIVALS)) {
      expect(await openNext(campaign.id, sent), arrival).toBeNull();
      expect(await leases(), arrival).toBe(0);
    }
    for (const [arrival, sent] of Object.entries(DELIBERATE)) {
      expect(await openNext(campaign.id, sent), arrival).toMatch(new RegExp(`^/campaigns/${campaign.id}/items/`));
      expect(await leases(), arrival).toBe(1);
    }

    const other = await makeUser("ANNOTATOR", ["python"]);
    session.actor = other;
    const { claimNextItemAction } = await import("@/app/(app)/campaigns/[id]/next/actions");
    const claimed = await claimNextItemAction({ campaignId: campaign.id });
    expect(claimed).toMatchObject({ ok: true, data: { itemUrl: expect.stringMatching(/\/items\//) } });
    expect(await prisma().assignment.count({ where: { userId: other.id } })).toBe(1);
  });
});

describe("scoped reads", () => {
  it("the audit log: admins read every event, reviewers only campaign events, annotators nothing", async () => {
    const { listAuditEvents } = await import("@/lib/server/audit/audit");
    for (const role of ROLES) {
      const read = listAuditEvents({ actor: actors[role]!, filters: {}, limit: 500 });
      if (!can({ role }, "audit:read")) {
        await expect(read, role).rejects.toMatchObject({ code: "FORBIDDEN" });
        continue;
      }
      const { events } = await read;
      if (can({ role }, "users:admin"))
        expect(
          events.some((event) => event.campaignId === null),
          role,
        ).toBe(true);
      else
        expect(
          events.every((event) => event.campaignId !== null),
          role,
        ).toBe(true);
    }
    expect(ROLES.filter((role) => can({ role }, "audit:read"))).toEqual(["ADMIN", "REVIEWER"]);
  });

  it("gold counters: an annotator's own gold items count like sample items in what they read; gold-free figures and gold accuracy go to admins and reviewers only", async () => {
    const { setGoldAnswer } = await import("@/lib/server/gold/gold");
    const { listAnnotatorProgress } = await import("@/lib/server/campaigns/annotator-progress");
    const admin = actors.ADMIN!;
    const name = uniqueName("matrix-gold");
    await importRecords({
      actor: admin,
      datasetName: name,
      source: chunks(toJsonl([0, 1, 2, 3, 4, 5].map((index) => makeRecord(`g${index}_${name.replaceAll("-", "_")}`)))),
      skipInvalid: false,
      origin: "api",
    });
    const [gold] = await prisma().record.findMany({ where: { dataset: { name } }, orderBy: { id: "asc" }, take: 1 });
    await setGoldAnswer({ actor: admin, recordId: gold.id, answer: { valid: false, categories: [], note: null } });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset: name,
        name: uniqueName("matrix-gold"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
        goldShare: 0.5,
      },
    });
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: annotator.id, name: "matrix" })).token;
    const label = { valid: true, categories: [] };
    const progress = (who: string) =>
      send({ method: "GET", path: "/campaigns/{id}/progress", params: { id: campaign.id }, token: who });
    const first = (await progress(token)).body as { items: number; mine: { available: number } };
    let served = 0;
    for (;;) {
      const claimed = await send({ method: "POST", path: "/campaigns/{id}/claim", params: { id: campaign.id }, token });
      if (claimed.status === 204) break;
      const itemId = (claimed.body as { item: { id: string } }).item.id;
      expect(
        (await send({ method: "POST", path: "/items/{id}/annotations", params: { id: itemId }, token, body: label }))
          .status,
      ).toBe(201);
      served += 1;
    }
    const goldServed = served - 5;
    // What the annotator reads adds up with their own gold items counted as items: as many
    // available at the start as they labelled, and "done" equal to their labels.
    expect(first).toMatchObject({ items: 5 + goldServed, mine: { available: served } });
    expect((await progress(token)).body).toMatchObject({
      items: 5 + goldServed,
      annotationsWanted: 5 + goldServed,
      annotationsDone: served,
      itemsComplete: null,
      mine: { submitted: served, available: 0 },
    });
    // Reviewers and admins read the gold-free figures.
    for (const role of ["REVIEWER", "ADMIN"] as const)
      expect((await progress(tokens[role]!)).body, role).toMatchObject({
        items: 5,
        annotationsWanted: 5,
        annotationsDone: 5,
        itemsComplete: 5,
      });
    // Gold accuracy (the per-annotator table) and gold answers: reports:export and gold:read, never annotators.
    await expect(listAnnotatorProgress({ actor: annotator, campaignId: campaign.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const rows = await listAnnotatorProgress({ actor: actors.REVIEWER!, campaignId: campaign.id });
    // "Labelled" counts the campaign's sample items only (beside a 5-item campaign, never 5 + gold).
    expect(rows.find((row) => row.userId === annotator.id)).toMatchObject({
      labelled: served - goldServed,
      gold: { n: goldServed },
    });
    expect((await send({ method: "GET", path: "/datasets/{name}/gold", params: { name }, token })).status).toBe(403);
  });
});
