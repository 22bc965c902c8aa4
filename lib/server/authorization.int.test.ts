// The authorization matrix: every /api/v1 route handler and every server action, called as each
// role and signed out, must allow exactly what the permission table says. The expected scope of a
// route comes from the API catalog (itself checked against the route files); the expected scope of
// an action comes from ACTIONS below, and an action missing from it fails the test.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

import { beforeAll, describe, expect, it, vi } from "vitest";

import { API_OPERATIONS } from "@/lib/api/catalog";
import type { Role } from "@/lib/generated/prisma/enums";
import { type Actor, can, ROLES, type Scope } from "@/lib/server/auth/permissions";
import { createApiToken } from "@/lib/server/db/tokens";
import { makeUser } from "@/lib/testing/factories";

// Server actions read the session through getSessionActor; outside Next there is no request, so the
// test decides who is signed in. Everything after that (scope checks, parsing) is the real code.
const session = vi.hoisted(() => ({ actor: null as Actor | null }));
vi.mock("@/lib/server/auth/actor", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/server/auth/actor")>()),
  getSessionActor: async () => session.actor,
}));

/** Every exported server action, keyed "file#export", with the scope it must require ("public": anyone). */
const ACTIONS: Record<string, Scope | "public"> = {
  "app/signin/actions.ts#createFirstAdminAction": "public",
  "app/invite/[token]/actions.ts#acceptInvitationAction": "public",
  "app/(app)/admin/users/actions.ts#inviteUserAction": "users:admin",
  "app/(app)/admin/users/actions.ts#updateUserAccessAction": "users:admin",
  "app/(app)/settings/tokens/actions.ts#createTokenAction": "tokens:write",
  "app/(app)/settings/tokens/actions.ts#revokeTokenAction": "tokens:write",
  "app/(app)/campaigns/actions.ts#createCampaignAction": "campaigns:admin",
  "app/(app)/campaigns/[id]/review/actions.ts#adjudicateAction": "reviews:write",
  "app/(app)/admin/sandbox/actions.ts#recheckSandboxAction": "sandbox:admin",
};

const routeModules = import.meta.glob<Record<string, (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>>>("/app/api/v1/**/route.ts");
const actionModules = import.meta.glob<Record<string, (input: unknown) => Promise<{ ok: boolean; code?: string }>>>("/app/**/actions.ts");

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
    tokens[role] = (await createApiToken({ actorId: null, userId: actors[role]!.id, name: "matrix" })).token;
  }
});

async function callRoute(method: string, path: string, token: string | null): Promise<number> {
  const file = `/app/api/v1${path.replace(/\{(\w+)\}/g, "[$1]")}/route.ts`;
  const load = routeModules[file];
  if (!load) throw new Error(`no route module for ${path}`);
  const handler = (await load())[method];
  const params = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, name === "name" ? "matrix-no-such-dataset" : "999999"]));
  const headers: Record<string, string> = { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const request = new Request(`http://localhost/api/v1${path}`, { method, headers, ...(method === "POST" ? { body: "{}" } : {}) });
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
    const catalogued = new Set(API_OPERATIONS.map((operation) => `/api/v1${operation.path.replace(/\{(\w+)\}/g, "[$1]")}`));
    const routes = files(join(process.cwd(), "app", "api"), "route.ts").map((file) => `/${relative(join(process.cwd(), "app"), file).replace(/\/route\.ts$/, "")}`);
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
      return [...source.matchAll(/export (?:const|async function) (\w+)/g)].map(([, name]) => `${relative(process.cwd(), file)}#${name}`);
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
        if (scope === "public" || (role && can({ role }, scope))) expect(["FORBIDDEN", "UNAUTHENTICATED"], `${role} should be allowed`).not.toContain(result.code);
        else expect(result.code, `${role ?? "signed out"} should be denied`).toBe(role ? "FORBIDDEN" : "UNAUTHENTICATED");
      }
    });
  }
});
