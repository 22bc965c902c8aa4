// Replies a model can be made to give by the records it reads: text PostgreSQL cannot store (a NUL,
// a lone surrogate), a reply of many megabytes, and a reply slower than the timeout while the
// signals behind the timeout are collected. Each must end as a stored result, never as a run that
// asks again and again. Against the fake OpenAI-compatible endpoint (lib/testing/fake-openai.ts).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

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
import { callChatCompletion, MAX_REPLY_BYTES } from "./endpoint";
import { processCriticRun } from "./run";

const FAST_RETRY = { maxAttempts: 2, baseMs: 20, maxWaitMs: 1_000 };

let fake: FakeOpenAI;
beforeAll(async () => {
  setEnv({ NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? "critic-replies-test-secret" });
  fake = await startFakeOpenAI(() => ({ content: criticAnswer({ pass: true }) }));
});
afterAll(async () => {
  await fake.close();
});

async function datasetOf(count: number): Promise<string> {
  const admin = await makeUser("ADMIN");
  const name = uniqueName("critic-replies");
  await importRecords({
    actor: admin,
    datasetName: name,
    source: chunks(toJsonl(Array.from({ length: count }, (_, index) => makeRecord(`reply${index}`)))),
    skipInvalid: false,
    origin: "api",
  });
  return name;
}

async function critic(overrides: Record<string, unknown> = {}): Promise<string> {
  const name = uniqueName("critic");
  await saveCritic({
    actor: SYSTEM_ACTOR.cli,
    input: saveCriticSchema.parse({ name, baseUrl: fake.baseUrl, model: "fake-model", concurrency: 2, ...overrides }),
  });
  return name;
}

describe("a critic reply the database cannot hold as it came", () => {
  it("with a NUL or a lone surrogate is stored cleaned and unreadable, asked once, and the run finishes", async () => {
    const name = await critic();
    const dataset = await datasetOf(3);
    const replies = [
      `Verdict:\u0000 ${criticAnswer({ pass: true })}`,
      `half a pair \ud800 then ${criticAnswer({ pass: false })}`,
      criticAnswer({ pass: true }),
    ];
    fake.setScript((_, index) => ({ content: replies[index % 3] }));
    const start = await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName: name, datasetName: dataset });
    const before = fake.requests.length;
    const outcome = await processCriticRun({ runId: start.runId, retry: FAST_RETRY }).catch((error: Error) => error);
    fake.setScript(() => ({ content: criticAnswer({ pass: true }) }));
    expect(outcome).toBe("finished");
    // One request per record: nothing is asked again because a write failed.
    expect(fake.requests.length - before).toBe(3);
    const progress = await getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: start.runId });
    expect(progress).toMatchObject({ status: "SUCCEEDED", done: 3, parsed: 1, unreadable: 2, errored: 0 });
    const { results } = await listCriticRunResults({ actor: SYSTEM_ACTOR.cli, runId: start.runId });
    const unreadable = results.filter((result) => result.status === "UNREADABLE");
    expect(unreadable).toHaveLength(2);
    for (const result of unreadable) {
      expect(result.overallPass).toBeNull();
      expect(result.error).toMatch(/NUL|surrogate/);
      // The rest of the reply is kept.
      expect(result.raw).toContain("overall_pass");
      expect(result.raw).not.toContain("\u0000");
    }
  });

  it(`past ${MAX_REPLY_BYTES / 1024 / 1024} MiB is cut, stored unreadable, and not read whole`, async () => {
    const name = await critic();
    const dataset = await datasetOf(1);
    fake.setScript(() => ({ content: `${"x".repeat(10 * 1024 * 1024)} ${criticAnswer({ pass: true })}` }));
    const start = await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName: name, datasetName: dataset });
    expect(await processCriticRun({ runId: start.runId, retry: FAST_RETRY })).toBe("finished");
    fake.setScript(() => ({ content: criticAnswer({ pass: true }) }));
    const [stored] = await prisma().criticResult.findMany({
      where: { runId: start.runId },
      select: { status: true, raw: true, error: true },
    });
    expect(stored.status).toBe("UNREADABLE");
    expect(stored.raw.length).toBeLessThanOrEqual(MAX_REPLY_BYTES);
    expect(stored.error).toMatch(/larger than/);
  });
});

describe("the per-request timeout", () => {
  it("holds while the signals it is composed with are garbage-collected", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    fake.setScript(() => ({ delayMs: 6_000, content: criticAnswer({ pass: true }) }));
    const run = new AbortController();
    const started = Date.now();
    const collecting = setInterval(gc, 50);
    try {
      const answer = await callChatCompletion(
        {
          baseUrl: fake.baseUrl,
          apiKey: null,
          model: "m",
          temperature: 0,
          maxTokens: 16,
          prompt: "slow",
          timeoutMs: 1_000,
        },
        { retry: { maxAttempts: 1, baseMs: 1, maxWaitMs: 1 }, signal: run.signal },
      ).catch((error: Error) => error);
      expect(answer).toBeInstanceOf(Error);
      expect((answer as Error).message).toMatch(/no answer within 1000 ms/);
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      clearInterval(collecting);
      fake.setScript(() => ({ content: criticAnswer({ pass: true }) }));
    }
  });
});
