// A critic's API key belongs to the operator: an admin may name only the variables the operator set
// aside for critics (VERITY_CRITIC_KEY_*), a stored key goes only to the origin it was typed for, a
// reply that echoes the key is never stored with it, and a redirect elsewhere is not followed.
// Against the fake OpenAI-compatible endpoint (lib/testing/fake-openai.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { setEnv } from "@/lib/testing/env";
import { criticAnswer, type FakeOpenAI, startFakeOpenAI } from "@/lib/testing/fake-openai";
import { saveCriticSchema } from "@/lib/validation/critics";

import { getCriticRunProgress } from "./get-critic-run-progress";
import { listCriticRunResults } from "./list-critic-run-results";
import { openCriticRun } from "./open-critic-run";
import { saveCritic } from "./save-critic";
import { processCriticRun } from "./run";

const FAST_RETRY = { maxAttempts: 2, baseMs: 20, maxWaitMs: 1_000 };
const SESSION_SECRET = "the-operator-session-secret-0123456789";

let fake: FakeOpenAI;
let elsewhere: FakeOpenAI;
beforeAll(async () => {
  setEnv({ NEXTAUTH_SECRET: SESSION_SECRET });
  fake = await startFakeOpenAI(() => ({ content: criticAnswer({ pass: true }) }));
  elsewhere = await startFakeOpenAI(() => ({ content: criticAnswer({ pass: true }) }));
});
afterAll(async () => {
  await fake.close();
  await elsewhere.close();
});

async function datasetOf(count: number): Promise<string> {
  const admin = await makeUser("ADMIN");
  const name = uniqueName("critic-keys");
  await importRecords({
    actor: admin,
    datasetName: name,
    source: chunks(toJsonl(Array.from({ length: count }, (_, index) => makeRecord(`key${index}`)))),
    skipInvalid: false,
    origin: "api",
  });
  return name;
}

function save(input: Record<string, unknown>) {
  return saveCritic({ actor: SYSTEM_ACTOR.cli, input: saveCriticSchema.parse({ model: "fake-model", ...input }) });
}

async function runOnce(criticName: string, dataset: string) {
  const start = await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName, datasetName: dataset });
  await processCriticRun({ runId: start.runId, retry: FAST_RETRY });
  return getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: start.runId });
}

const everyAuthorization = () => [...fake.requests, ...elsewhere.requests].map((request) => request.authorization);

describe("the variable that holds a critic's key", () => {
  it("must be one the operator set aside for critics: NEXTAUTH_SECRET and DATABASE_URL are refused", () => {
    for (const apiKeyEnv of ["NEXTAUTH_SECRET", "DATABASE_URL", "OIDC_CLIENT_SECRET", "VERITY_CRITIC_KEY_"]) {
      const parsed = saveCriticSchema.safeParse({ name: "x", baseUrl: fake.baseUrl, model: "m", apiKeyEnv });
      expect(parsed.success, apiKeyEnv).toBe(false);
      expect(JSON.stringify(parsed.error?.issues)).toContain("VERITY_CRITIC_KEY_");
    }
    expect(
      saveCriticSchema.safeParse({
        name: "x",
        baseUrl: fake.baseUrl,
        model: "m",
        apiKeyEnv: "VERITY_CRITIC_KEY_OPENAI",
      }).success,
    ).toBe(true);
  });

  it("is never read when a stored critic names another variable: the run fails and nothing is sent", async () => {
    const name = uniqueName("critic");
    await save({ name, baseUrl: fake.baseUrl });
    // As a critic saved by an older version (or written by hand) would hold it.
    await prisma().critic.update({ where: { name }, data: { apiKeyEnv: "NEXTAUTH_SECRET" } });
    const progress = await runOnce(name, await datasetOf(1));
    expect(progress).toMatchObject({ status: "FAILED", done: 0 });
    expect(progress.stopReason).toContain("VERITY_CRITIC_KEY_");
    expect(everyAuthorization()).not.toContain(`Bearer ${SESSION_SECRET}`);
  });
});

describe("a stored key", () => {
  it("is asked for again when the base URL moves to another origin, and is never sent there", async () => {
    const name = uniqueName("critic");
    await save({ name, baseUrl: fake.baseUrl, apiKey: "sk-stored-for-the-fake" });
    // Another path on the same origin keeps it.
    await save({ name, baseUrl: `${fake.baseUrl}/`, apiKey: "" });
    await expect(save({ name, baseUrl: elsewhere.baseUrl })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      fieldErrors: { apiKey: [expect.stringContaining("again")] },
    });
    const before = elsewhere.requests.length;
    // The refused save changed nothing: a run still asks the first origin.
    expect((await runOnce(name, await datasetOf(1))).status).toBe("SUCCEEDED");
    expect(elsewhere.requests.length).toBe(before);

    // A new key typed with the new origin goes there, and only it does.
    await save({ name, baseUrl: elsewhere.baseUrl, apiKey: "sk-typed-for-elsewhere" });
    expect((await runOnce(name, await datasetOf(1))).status).toBe("SUCCEEDED");
    expect(elsewhere.requests.slice(before).map((request) => request.authorization)).toEqual([
      "Bearer sk-typed-for-elsewhere",
    ]);
  });

  it("is dropped when the critic moves to another origin and names a key variable instead", async () => {
    const name = uniqueName("critic");
    await save({ name, baseUrl: fake.baseUrl, apiKey: "sk-stored-for-the-fake-2" });
    await save({ name, baseUrl: elsewhere.baseUrl, apiKeyEnv: "VERITY_CRITIC_KEY_ELSEWHERE" });
    const stored = await prisma().critic.findUniqueOrThrow({ where: { name }, select: { apiKeySealed: true } });
    expect(stored.apiKeySealed).toBeNull();
  });
});

describe("a reply", () => {
  it("that echoes the key is stored and shown with the key redacted, verdict or error", async () => {
    const key = "sk-echoed-back-by-a-hostile-endpoint";
    const name = uniqueName("critic");
    await save({ name, baseUrl: fake.baseUrl, apiKey: key });
    fake.setScript(({ authorization }, index) =>
      index % 2 === 0
        ? { content: `You sent ${authorization}. ${criticAnswer({ pass: true })}` }
        : { status: 400, body: `bad key ${authorization}` },
    );
    const dataset = await datasetOf(4);
    const start = await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName: name, datasetName: dataset });
    await processCriticRun({ runId: start.runId, retry: FAST_RETRY });
    fake.setScript(() => ({ content: criticAnswer({ pass: true }) }));
    const { results } = await listCriticRunResults({ actor: SYSTEM_ACTOR.cli, runId: start.runId });
    expect(results).toHaveLength(4);
    expect(results.some((result) => result.status === "ERROR")).toBe(true);
    expect(JSON.stringify(results)).not.toContain(key);
    expect(JSON.stringify(results)).toContain("[redacted]");
    const stored = await prisma().criticResult.findMany({ where: { runId: start.runId } });
    expect(JSON.stringify(stored)).not.toContain(key);
  });

  it("that redirects to another origin is not followed: the key never reaches it", async () => {
    const name = uniqueName("critic");
    await save({ name, baseUrl: fake.baseUrl, apiKey: "sk-not-for-the-redirect" });
    fake.setScript(() => ({ status: 307, headers: { location: `${elsewhere.baseUrl}/chat/completions` } }));
    const before = elsewhere.requests.length;
    const start = await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName: name, datasetName: await datasetOf(1) });
    await processCriticRun({ runId: start.runId, retry: FAST_RETRY });
    fake.setScript(() => ({ content: criticAnswer({ pass: true }) }));
    expect(elsewhere.requests.length).toBe(before);
    const { results } = await listCriticRunResults({ actor: SYSTEM_ACTOR.cli, runId: start.runId });
    expect(results).toMatchObject([{ status: "ERROR" }]);
    expect(results[0].error).toMatch(/redirect/);
  });
});
