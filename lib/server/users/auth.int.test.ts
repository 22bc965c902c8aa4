// Integration tests of authentication and authorization against the embedded PostgreSQL: API tokens,
// invitations, the first admin, role scopes in the data layer, and the REST routes' answers.
import { gzipSync } from "node:zlib";

import { beforeAll, describe, expect, it, vi } from "vitest";

import { GET as getDatasets } from "@/app/api/v1/datasets/route";
import { setupCodeFor } from "@/lib/auth/setup-code";
import { GET as getRecords, POST as postRecords } from "@/app/api/v1/datasets/[name]/records/route";
import { GET as getImport } from "@/app/api/v1/imports/[id]/route";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { expectResponse, readResponse } from "@/lib/testing/api-response";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { acceptInvitation, createInvitation, findOpenInvitation } from "@/lib/server/invitations/invitations";
import { createApiToken, findActorByToken, listApiTokens, revokeApiToken } from "@/lib/server/users/tokens";
import {
  countUsers,
  createFirstAdmin,
  hashPassword,
  upsertUserFromCli,
  verifyPassword,
} from "@/lib/server/users/users";
import { setEnv } from "@/lib/testing/env";

// The product's hasher, watched: every call still hashes, and the tests that refuse before hashing
// count the calls (a timing would only say "faster than a hash", and a busy machine blurs it).
vi.mock("@/lib/server/auth/password-hasher", async (importOriginal) => {
  const hasher = await importOriginal<typeof import("@/lib/server/auth/password-hasher")>();
  return { ...hasher, hashPassword: vi.fn(hasher.hashPassword) };
});
const hashCalls = vi.mocked(hashPassword);

setEnv({ NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? "integration-test-secret" });
const setupCode = setupCodeFor(process.env.NEXTAUTH_SECRET!);

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "expected an AppError").toBeInstanceOf(AppError);
  return (error as AppError).code;
}

async function tokenFor(actor: Actor): Promise<string> {
  return (await createApiToken({ actor, userId: actor.id, name: "test" })).token;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const params = <P>(value: P) => ({ params: Promise.resolve(value) });

function recordsUrl(dataset: string, query = ""): string {
  return `http://localhost/api/v1/datasets/${encodeURIComponent(dataset)}/records${query}`;
}

type ErrorBody = { error: { code: string; message: string; fieldErrors?: Record<string, string[]> } };

// Runs first: createFirstAdmin only works on an empty user table, and the integration files share one database.
describe("createFirstAdmin", () => {
  it("creates the first admin once, then answers CONFLICT", async () => {
    await prisma().user.deleteMany();
    expect(await countUsers()).toBe(0);

    const email = `${uniqueName("first")}@Example.test`;
    const admin = await createFirstAdmin({ email, name: "First", password: "a long enough password", setupCode });
    expect(admin).toMatchObject({ email: email.toLowerCase(), name: "First", role: "ADMIN", languages: [] });
    expect(await verifyPassword({ email, password: "a long enough password" })).toMatchObject({ id: admin.id });
    expect(await verifyPassword({ email, password: "wrong" })).toBeNull();

    expect(
      await codeOf(
        createFirstAdmin({
          email: `${uniqueName("second")}@example.test`,
          name: null,
          password: "another password",
          setupCode,
        }),
      ),
    ).toBe("CONFLICT");
    expect(await countUsers()).toBe(1);
  });

  it("refuses to create the first admin without the setup code the server printed", async () => {
    await prisma().user.deleteMany();
    const attempt = { email: `${uniqueName("squatter")}@example.test`, name: null, password: "a long enough password" };
    for (const wrong of ["", "AAAA-BBBB-CCCC-DDDD", setupCodeFor("some other secret")]) {
      const error = await createFirstAdmin({ ...attempt, setupCode: wrong }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "INVALID_INPUT", fieldErrors: { setupCode: [expect.any(String)] } });
    }
    expect(await countUsers()).toBe(0);
    // Typed loosely (lower case, spaces for dashes), the right code works.
    expect(
      await createFirstAdmin({ ...attempt, setupCode: setupCode.toLowerCase().replaceAll("-", " ") }),
    ).toMatchObject({ role: "ADMIN" });
  });

  it("refuses a second first admin and a wrong setup code before hashing the password", async () => {
    await makeUser("ADMIN");
    hashCalls.mockClear();
    const attempt = { email: `${uniqueName("late")}@example.test`, name: null, password: "a long enough password" };
    expect(await codeOf(createFirstAdmin({ ...attempt, setupCode }))).toBe("CONFLICT");
    expect(await codeOf(createFirstAdmin({ ...attempt, setupCode: "nope" }))).toBe("INVALID_INPUT");
    expect(hashCalls).not.toHaveBeenCalled();
  });

  it("creates exactly one admin when two attempts race", async () => {
    await prisma().user.deleteMany();
    const results = await Promise.allSettled([
      createFirstAdmin({
        email: `${uniqueName("race-a")}@example.test`,
        name: null,
        password: "password one",
        setupCode,
      }),
      createFirstAdmin({
        email: `${uniqueName("race-b")}@example.test`,
        name: null,
        password: "password two",
        setupCode,
      }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(AppError);
    expect((rejected.reason as AppError).code).toBe("CONFLICT");
    expect(await countUsers()).toBe(1);
  });
});

describe("stored passwords", () => {
  // Test users share one hash made once per process (lib/testing/factories.ts): this test is what
  // proves the cost the product hashes at.
  it("are bcrypt hashes of cost 12", async () => {
    expect(await hashPassword("a long enough password")).toMatch(/^\$2b\$12\$/);
    const email = `${uniqueName("cost")}@example.test`;
    const cli = { actor: SYSTEM_ACTOR.cli, email, role: "ANNOTATOR" as const, languages: [] };
    await upsertUserFromCli({ ...cli, password: "a long enough password" });
    const stored = await prisma().user.findUniqueOrThrow({ where: { email }, select: { passwordHash: true } });
    expect(stored.passwordHash).toMatch(/^\$2b\$12\$.{53}$/);
    expect(await verifyPassword({ email, password: "a long enough password" })).toMatchObject({ email });
  });
});

describe("API tokens", () => {
  it("stores only a hash of the token", async () => {
    const user = await makeUser("ANNOTATOR", ["python"]);
    const { token, row } = await createApiToken({ actor: user, userId: user.id, name: "laptop" });
    expect(token).toMatch(/^vty_/);
    expect(row.prefix).toBe(token.slice(0, 10));

    const stored = await prisma().apiToken.findUniqueOrThrow({ where: { id: row.id } });
    expect(stored.tokenHash).not.toBe(token);
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    // No column of the row, read raw, holds the secret.
    const [raw] = await prisma().$queryRaw<Record<string, unknown>[]>`SELECT * FROM "ApiToken" WHERE id = ${row.id}`;
    for (const value of Object.values(raw)) expect(String(value)).not.toContain(token);
  });

  it("resolves a token to its owner until the token is revoked", async () => {
    const user = await makeUser("REVIEWER", ["go", "rust"]);
    const { token, row } = await createApiToken({ actor: user, userId: user.id, name: "ci" });

    expect(await findActorByToken(token)).toEqual(user);
    expect(await findActorByToken(`${token}x`)).toBeNull();
    expect((await prisma().apiToken.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt).not.toBeNull();

    await revokeApiToken({ actor: user, tokenId: row.id });
    expect(await findActorByToken(token)).toBeNull();
    expect((await listApiTokens({ actor: user })).find((t) => t.id === row.id)?.revokedAt).not.toBeNull();
    // Revoking twice: the token is no longer active.
    expect(await codeOf(revokeApiToken({ actor: user, tokenId: row.id }))).toBe("NOT_FOUND");
  });

  it("cannot revoke someone else's token, which keeps working", async () => {
    const owner = await makeUser("ANNOTATOR");
    const other = await makeUser("ADMIN");
    const { token, row } = await createApiToken({ actor: owner, userId: owner.id, name: "mine" });

    expect(await codeOf(revokeApiToken({ actor: other, tokenId: row.id }))).toBe("NOT_FOUND");
    expect(await findActorByToken(token)).toMatchObject({ id: owner.id });
    expect((await listApiTokens({ actor: other })).map((t) => t.id)).not.toContain(row.id);
  });

  it("refuses the token of a disabled user", async () => {
    const user = await makeUser("ADMIN");
    const token = await tokenFor(user);
    expect(await findActorByToken(token)).toMatchObject({ id: user.id });

    await prisma().user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    expect(await findActorByToken(token)).toBeNull();
    const response = await getDatasets(
      new Request("http://localhost/api/v1/datasets", { headers: bearer(token) }),
      params({}),
    );
    expect(response.status).toBe(401);
  });
});

describe("invitations", () => {
  let admin: Actor;
  beforeAll(async () => {
    admin = await makeUser("ADMIN");
  });

  it("creates, finds and accepts an invitation into a user with the invited role and languages", async () => {
    const email = `${uniqueName("invitee")}@example.test`;
    const { token, expiresAt } = await createInvitation({
      actor: admin,
      email: ` ${email.toUpperCase()} `,
      role: "ANNOTATOR",
      languages: ["python", "rust"],
    });
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now());
    const stored = await prisma().invitation.findFirstOrThrow({ where: { email } });
    expect(stored.tokenHash).not.toBe(token);

    expect(await findOpenInvitation(token)).toEqual({
      email,
      role: "ANNOTATOR",
      languages: ["python", "rust"],
      expiresAt,
    });

    const user = await acceptInvitation({ token, name: "Ada", password: "a fine password" });
    expect(user).toMatchObject({ email, name: "Ada", role: "ANNOTATOR", languages: ["python", "rust"] });
    expect(await verifyPassword({ email, password: "a fine password" })).toMatchObject({
      id: user.id,
      role: "ANNOTATOR",
    });
  });

  it("lets a token be used once", async () => {
    const email = `${uniqueName("once")}@example.test`;
    const { token } = await createInvitation({ actor: admin, email, role: "REVIEWER", languages: [] });
    await acceptInvitation({ token, name: null, password: "first password" });

    expect(await findOpenInvitation(token)).toBeNull();
    expect(await codeOf(acceptInvitation({ token, name: null, password: "second password" }))).toBe("NOT_FOUND");
    expect(await prisma().user.count({ where: { email } })).toBe(1);
    expect(await verifyPassword({ email, password: "second password" })).toBeNull();
  });

  it("refuses an expired invitation", async () => {
    const email = `${uniqueName("late")}@example.test`;
    const { token } = await createInvitation({ actor: admin, email, role: "ANNOTATOR", languages: ["go"] });
    await prisma().invitation.updateMany({ where: { email }, data: { expiresAt: new Date(Date.now() - 1000) } });

    expect(await findOpenInvitation(token)).toBeNull();
    expect(await codeOf(acceptInvitation({ token, name: null, password: "too late password" }))).toBe("NOT_FOUND");
    expect(await prisma().user.count({ where: { email } })).toBe(0);
  });

  it("refuses a bogus or used token before hashing the password", async () => {
    const { token } = await createInvitation({
      actor: admin,
      email: `${uniqueName("fast")}@example.test`,
      role: "ANNOTATOR",
      languages: [],
    });
    hashCalls.mockClear();
    await acceptInvitation({ token, name: null, password: "first password" });
    expect(hashCalls).toHaveBeenCalledTimes(1);
    hashCalls.mockClear();
    expect(
      await codeOf(acceptInvitation({ token: "inv_not-a-real-token", name: null, password: "a fine password" })),
    ).toBe("NOT_FOUND");
    expect(await codeOf(acceptInvitation({ token, name: null, password: "a fine password" }))).toBe("NOT_FOUND");
    expect(hashCalls).not.toHaveBeenCalled();
  });

  it("refuses an unknown token and an invitation for an existing account", async () => {
    expect(await findOpenInvitation("inv_not-a-real-token")).toBeNull();
    expect(await codeOf(acceptInvitation({ token: "inv_not-a-real-token", name: null, password: "whatever" }))).toBe(
      "NOT_FOUND",
    );
    const existing = await makeUser("ANNOTATOR");
    expect(
      await codeOf(createInvitation({ actor: admin, email: existing.email, role: "ANNOTATOR", languages: [] })),
    ).toBe("CONFLICT");
  });
});

describe("authorization", () => {
  let admin: Actor;
  let reviewer: Actor;
  let annotator: Actor;
  let adminToken: string;
  let annotatorToken: string;
  let reviewerToken: string;

  beforeAll(async () => {
    [admin, reviewer, annotator] = await Promise.all([
      makeUser("ADMIN"),
      makeUser("REVIEWER"),
      makeUser("ANNOTATOR", ["python"]),
    ]);
    [adminToken, reviewerToken, annotatorToken] = await Promise.all([
      tokenFor(admin),
      tokenFor(reviewer),
      tokenFor(annotator),
    ]);
  });

  const importAs = (actor: Actor, datasetName: string) =>
    importRecords({
      actor,
      datasetName,
      source: chunks(toJsonl([makeRecord(datasetName.replaceAll("-", "_"))])),
      skipInvalid: false,
      origin: "api",
    });

  it("lets an admin import, and neither an annotator nor a reviewer", async () => {
    const name = uniqueName("authz");
    expect(await codeOf(importAs(annotator, name))).toBe("FORBIDDEN");
    expect(await codeOf(importAs(reviewer, name))).toBe("FORBIDDEN");
    expect(await prisma().dataset.count({ where: { name } })).toBe(0);
    expect(await prisma().importJob.count({ where: { datasetName: name } })).toBe(0);
    expect(await importAs(admin, name)).toMatchObject({ ok: true, imported: 1 });
  });

  it("answers 403 to an annotator's or reviewer's POST of records, 201 to an admin's", async () => {
    const name = uniqueName("post");
    const body = toJsonl([makeRecord(name.replaceAll("-", "_"))]);
    for (const token of [annotatorToken, reviewerToken]) {
      const response = await postRecords(
        new Request(recordsUrl(name), { method: "POST", headers: bearer(token), body }),
        params({ name }),
      );
      expect(response.status).toBe(403);
      expect(((await response.json()) as ErrorBody).error.code).toBe("FORBIDDEN");
    }
    expect(await prisma().dataset.count({ where: { name } })).toBe(0);

    const response = await postRecords(
      new Request(recordsUrl(name, "?fileName=a.jsonl"), { method: "POST", headers: bearer(adminToken), body }),
      params({ name }),
    );
    expect(response.status).toBe(201);
    const summary = (await readResponse(response, "POST", "/datasets/{name}/records")) as {
      ok: boolean;
      jobId: string;
      imported: number;
      byLanguage: Record<string, number>;
    };
    expect(summary).toMatchObject({ ok: true, imported: 1, byLanguage: { python: 1 } });

    const job = await getImport(
      new Request(`http://localhost/api/v1/imports/${summary.jobId}`, { headers: bearer(adminToken) }),
      params({ id: summary.jobId }),
    );
    expect(job.status).toBe(200);
    expect(await readResponse(job, "GET", "/imports/{id}")).toMatchObject({
      id: summary.jobId,
      datasetName: name,
      status: "SUCCEEDED",
      imported: 1,
    });
    const hidden = await getImport(
      new Request(`http://localhost/api/v1/imports/${summary.jobId}`, { headers: bearer(annotatorToken) }),
      params({ id: summary.jobId }),
    );
    expect(hidden.status).toBe(403);
  });

  it("accepts a gzipped POST body", async () => {
    const name = uniqueName("postgz");
    const body = gzipSync(
      Buffer.from(
        toJsonl([makeRecord(`${name.replaceAll("-", "_")}_1`), makeRecord(`${name.replaceAll("-", "_")}_2`)]),
      ),
    );
    const response = await postRecords(
      new Request(recordsUrl(name), { method: "POST", headers: bearer(adminToken), body }),
      params({ name }),
    );
    expect(response.status).toBe(201);
    expect(await readResponse(response, "POST", "/datasets/{name}/records")).toMatchObject({ imported: 2 });
  });

  it("does not let an annotator or a reviewer invite", async () => {
    const email = `${uniqueName("nope")}@example.test`;
    expect(await codeOf(createInvitation({ actor: annotator, email, role: "ADMIN", languages: [] }))).toBe("FORBIDDEN");
    expect(await codeOf(createInvitation({ actor: reviewer, email, role: "ADMIN", languages: [] }))).toBe("FORBIDDEN");
    expect(await prisma().invitation.count({ where: { email } })).toBe(0);
  });

  it("answers 401 to a bad or malformed bearer token", async () => {
    for (const authorization of ["Bearer vty_bogus", "Bearer", "Basic dXNlcjpwYXNz"]) {
      const response = await getDatasets(
        new Request("http://localhost/api/v1/datasets", { headers: { authorization } }),
        params({}),
      );
      expect(response.status).toBe(401);
      expect(((await response.json()) as ErrorBody).error.code).toBe("UNAUTHENTICATED");
    }
  });

  it("does not let a request with no Authorization header through", async () => {
    // Outside Next, next-auth's getServerSession throws (headers() has no request scope), so the
    // wrapper answers 500 here; inside Next the session is empty and the answer is 401.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const response = await getDatasets(new Request("http://localhost/api/v1/datasets"), params({}));
      expect([401, 500]).toContain(response.status);
      expect(((await response.json()) as ErrorBody).error.code).not.toBe("FORBIDDEN");
    } finally {
      logged.mockRestore();
    }
  });

  /** A campaign in python over the dataset, which makes it visible to python annotators. */
  const campaignOn = (dataset: string) =>
    createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("authz"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });

  it("lists datasets with their counts to reviewers, and to annotators once a campaign in their languages uses them", async () => {
    const name = uniqueName("listed");
    await importAs(admin, name);
    const listed = async (token: string) => {
      const response = await getDatasets(
        new Request("http://localhost/api/v1/datasets", { headers: bearer(token) }),
        params({}),
      );
      expect(response.status).toBe(200);
      return (
        (await readResponse(response, "GET", "/datasets")) as {
          name: string;
          records: number;
          byLanguage: Record<string, number>;
        }[]
      ).find((d) => d.name === name);
    };
    expect(await listed(reviewerToken)).toMatchObject({ records: 1, byLanguage: { python: 1 } });
    expect(await listed(annotatorToken)).toBeUndefined();
    await campaignOn(name);
    expect(await listed(annotatorToken)).toMatchObject({ records: 1, byLanguage: { python: 1 } });
  });

  it("answers 404 for the records of an unknown dataset", async () => {
    const name = uniqueName("missing");
    const response = await getRecords(
      new Request(recordsUrl(name), { headers: bearer(annotatorToken) }),
      params({ name }),
    );
    expect(response.status).toBe(404);
    expect(((await response.json()) as ErrorBody).error.code).toBe("NOT_FOUND");
  });

  it("answers 422 with field errors to a bad query", async () => {
    const name = uniqueName("query");
    await importAs(admin, name);
    const cases: [string, string][] = [
      ["?limit=abc", "limit"],
      ["?language=cobol", "language"],
      ["?limit=0", "limit"],
      ["?limit=501", "limit"],
      ["?critic=maybe", "critic"],
      ["?difficulty=trivial", "difficulty"],
      ["?cursor=-1", "cursor"],
    ];
    for (const [query, field] of cases) {
      const response = await getRecords(
        new Request(recordsUrl(name, query), { headers: bearer(annotatorToken) }),
        params({ name }),
      );
      expect(response.status, query).toBe(422);
      const body = (await response.json()) as ErrorBody;
      expect(body.error.code).toBe("INVALID_INPUT");
      expect(Object.keys(body.error.fieldErrors ?? {}), query).toEqual([field]);
    }
  });

  it("answers 422 to a POST with a bad line, naming it, and writes nothing", async () => {
    const name = uniqueName("postbad");
    const seed = name.replaceAll("-", "_");
    const body = [
      JSON.stringify(makeRecord(`${seed}_1`)),
      JSON.stringify(makeRecord(`${seed}_2`, { language: "cobol" })),
    ].join("\n");
    const recordsBefore = await prisma().record.count();
    const response = await postRecords(
      new Request(recordsUrl(name), { method: "POST", headers: bearer(adminToken), body }),
      params({ name }),
    );
    expect(response.status).toBe(422);
    // The 422 is the summary too, in the 201's shape.
    const summary = expectResponse("POST", "/datasets/{name}/records", await response.json()) as {
      ok: boolean;
      imported: number;
      errors: { line: number; message: string }[];
    };
    expect(summary).toMatchObject({ ok: false, imported: 0 });
    expect(summary.errors).toEqual([{ line: 2, message: expect.stringMatching(/unknown language "cobol"/) }]);
    expect(await prisma().record.count()).toBe(recordsBefore);
    expect(await prisma().dataset.count({ where: { name } })).toBe(0);

    const skipped = await postRecords(
      new Request(recordsUrl(name, "?skipInvalid=1"), { method: "POST", headers: bearer(adminToken), body }),
      params({ name }),
    );
    expect(skipped.status).toBe(201);
    expect(await readResponse(skipped, "POST", "/datasets/{name}/records")).toMatchObject({
      ok: true,
      imported: 1,
      skipped: 1,
    });
  });

  it("answers 422 to an empty POST body", async () => {
    const name = uniqueName("postempty");
    const response = await postRecords(
      new Request(recordsUrl(name), { method: "POST", headers: bearer(adminToken) }),
      params({ name }),
    );
    expect(response.status).toBe(422);
    expect(expectResponse("POST", "/datasets/{name}/records", await response.json())).toMatchObject({
      ok: false,
      imported: 0,
      errors: [{ line: 0, message: expect.stringMatching(/empty/) }],
    });
  });

  describe("the records list", () => {
    const name = uniqueName("browse");
    const seed = name.replaceAll("-", "_");
    const pass = JSON.stringify({ summary: { overall_pass: true, failed_rules: [], key_points: [] } });
    const fail = JSON.stringify({ summary: { overall_pass: false, failed_rules: ["other issues"], key_points: [] } });
    const input = [
      makeRecord(`${seed}_0`, { language: "python", difficulty: "easy", critic_result: pass }),
      makeRecord(`${seed}_1`, { language: "go", difficulty: "hard", critic_result: fail }),
      makeRecord(`${seed}_2`, { language: "rust", difficulty: "medium" }),
      makeRecord(`${seed}_3`, {
        language: "py",
        difficulty: "hard",
        question: "Implement a Trie with insert and search.",
      }),
      makeRecord(`${seed}_4`, { language: "go", difficulty: null, critic_result: pass }),
      makeRecord(`${seed}_5`, {
        language: "python",
        difficulty: "MEDIUM",
        critic_result: fail,
        question: "Write a TRIE-based autocomplete.",
      }),
      makeRecord(`${seed}_6`, { language: "rust", difficulty: "easy" }),
    ];

    beforeAll(async () => {
      const summary = await importRecords({
        actor: admin,
        datasetName: name,
        source: chunks(toJsonl(input)),
        skipInvalid: false,
        origin: "api",
      });
      expect(summary).toMatchObject({ ok: true, imported: 7 });
      await campaignOn(name);
    });

    type Page = {
      records: {
        id: number;
        line: number;
        language: string;
        difficulty: string | null;
        critic: { overallPass: boolean | null } | null;
      }[];
      nextCursor: number | null;
    };

    async function page(query: string): Promise<Page> {
      const response = await getRecords(
        new Request(recordsUrl(name, query), { headers: bearer(annotatorToken) }),
        params({ name }),
      );
      expect(response.status, query).toBe(200);
      return (await readResponse(response, "GET", "/datasets/{name}/records")) as Page;
    }

    it("pages through every record with nextCursor, in import order", async () => {
      const lines: number[] = [];
      let cursor: number | null = null;
      let pages = 0;
      do {
        const result: Page = await page(`?limit=3${cursor === null ? "" : `&cursor=${cursor}`}`);
        expect(result.records.length).toBeLessThanOrEqual(3);
        lines.push(...result.records.map((r) => r.line));
        cursor = result.nextCursor;
        if (cursor !== null) expect(cursor).toBe(result.records[result.records.length - 1].id);
        pages++;
      } while (cursor !== null && pages < 10);
      expect(pages).toBe(3);
      expect(lines).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect((await page("?limit=7")).nextCursor).toBeNull();
    });

    it("filters by language, difficulty, critic verdict and question text", async () => {
      const lines = async (query: string) => (await page(query)).records.map((r) => r.line);
      expect(await lines("?language=python")).toEqual([1, 4, 6]);
      expect(await lines("?language=go&difficulty=hard")).toEqual([2]);
      expect(await lines("?difficulty=medium")).toEqual([3, 6]);
      expect(await lines("?critic=pass")).toEqual([1, 5]);
      expect(await lines("?critic=fail")).toEqual([2, 6]);
      expect(await lines("?critic=none")).toEqual([3, 4, 7]);
      expect(await lines("?q=trie")).toEqual([4, 6]);
      expect(await lines("?q=trie&critic=fail")).toEqual([6]);
      expect(await lines("?language=swift")).toEqual([]);
    });

    it("treats % and _ in q as literal text, not LIKE wildcards", async () => {
      const other = uniqueName("wild");
      const otherSeed = other.replaceAll("-", "_");
      await importRecords({
        actor: admin,
        datasetName: other,
        source: chunks(
          toJsonl([
            makeRecord(`${otherSeed}_0`, { question: "Return 100% of the input." }),
            makeRecord(`${otherSeed}_1`, { question: "Return the input unchanged." }),
          ]),
        ),
        skipInvalid: false,
        origin: "api",
      });
      await campaignOn(other);
      const response = await getRecords(
        new Request(recordsUrl(other, "?q=%25"), { headers: bearer(annotatorToken) }),
        params({ name: other }),
      );
      expect(response.status).toBe(200);
      expect(
        ((await readResponse(response, "GET", "/datasets/{name}/records")) as Page).records.map((r) => r.line),
      ).toEqual([1]);
    });

    it("combines a filter with pagination", async () => {
      const first = await page("?language=python&limit=2");
      expect(first.records.map((r) => r.line)).toEqual([1, 4]);
      expect(first.nextCursor).not.toBeNull();
      const second = await page(`?language=python&limit=2&cursor=${first.nextCursor}`);
      expect(second.records.map((r) => r.line)).toEqual([6]);
      expect(second.nextCursor).toBeNull();
    });
  });
});
