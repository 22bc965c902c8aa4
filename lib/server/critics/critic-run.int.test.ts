// Critic runs against a fake OpenAI-compatible endpoint (lib/testing/fake-openai.ts): replies that
// parse, that do not (kept as unreadable), 429 with Retry-After, 500, slow replies past the timeout,
// usage, concurrency, pause/cancel, a crash in the middle, and the queued job end to end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { changeCriticRunStatus } from "./change-critic-run-status";
import { getCriticRunProgress } from "./get-critic-run-progress";
import { listCriticRunResults } from "./list-critic-run-results";
import { listCritics } from "./list-critics";
import { openCriticRun } from "./open-critic-run";
import { saveCritic } from "./save-critic";
import { importRecords } from "@/lib/server/imports/imports";
import { stopBoss } from "@/lib/server/workers/boss";
import { saveCriticSchema } from "@/lib/validation/critics";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { criticAnswer, type FakeOpenAI, type FakeScript, startFakeOpenAI } from "@/lib/testing/fake-openai";

import { forgetCriticWorkers, startCriticRun, startCriticWorkers } from "./jobs";
import { processCriticRun } from "./run";
import { setEnv } from "@/lib/testing/env";

const FAST_RETRY = { maxAttempts: 3, baseMs: 20, maxWaitMs: 5_000 };

let fake: FakeOpenAI;
beforeAll(async () => {
  setEnv({ NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? "critic-run-test-secret" });
  fake = await startFakeOpenAI(() => ({ content: criticAnswer({ pass: true }) }));
});
afterAll(async () => {
  await stopBoss(5_000);
  forgetCriticWorkers();
  await fake.close();
});

/** A dataset whose records carry a `case` word in their question; the fake answers by it. */
async function datasetWith(cases: string[]): Promise<string> {
  const admin = await makeUser("ADMIN");
  const name = uniqueName("critic-ds");
  await importRecords({
    actor: admin,
    datasetName: name,
    source: chunks(
      toJsonl(
        cases.map((word, index) => makeRecord(`${word}${index}`, { question: `case:${word} #${index} Write add.` })),
      ),
    ),
    skipInvalid: false,
    origin: "api",
  });
  return name;
}

const caseOf = (prompt: string) => /case:(\w+)/.exec(prompt)?.[1] ?? "";

async function critic(overrides: Partial<Parameters<typeof saveCriticSchema.parse>[0]> = {}): Promise<string> {
  const name = uniqueName("critic");
  await saveCritic({
    actor: SYSTEM_ACTOR.cli,
    input: saveCriticSchema.parse({ name, baseUrl: fake.baseUrl, model: "fake-model", concurrency: 2, ...overrides }),
  });
  return name;
}

async function run(
  criticName: string,
  dataset: string,
  script: FakeScript,
  options: { budgetMs?: number; graceMs?: number } = {},
) {
  fake.setScript(script);
  const start = await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName, datasetName: dataset });
  const outcome = await processCriticRun({ runId: start.runId, retry: FAST_RETRY, ...options });
  return { start, outcome, progress: await getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: start.runId }) };
}

describe("critic configurations", () => {
  it("makes a new prompt version only when a used prompt changes, and never shows a stored key", async () => {
    const name = uniqueName("critic");
    const base = { name, baseUrl: fake.baseUrl, model: "m1", apiKey: "sk-very-secret-key" };
    const first = await saveCritic({ actor: SYSTEM_ACTOR.cli, input: saveCriticSchema.parse(base) });
    expect(first).toMatchObject({ version: 1, createdCritic: true });
    // Unchanged: the same version. Changed before any run: the same version, edited.
    expect((await saveCritic({ actor: SYSTEM_ACTOR.cli, input: saveCriticSchema.parse(base) })).version).toBe(1);
    await saveCritic({ actor: SYSTEM_ACTOR.cli, input: saveCriticSchema.parse({ ...base, model: "m2" }) });
    let [row] = (await listCritics({ actor: SYSTEM_ACTOR.cli })).filter((c) => c.name === name);
    expect(row.versions.map((v) => [v.number, v.model])).toEqual([[1, "m2"]]);

    // A run uses version 1: from then on a change makes version 2 and version 1 stays as it was.
    const dataset = await datasetWith(["pass"]);
    await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName: name, datasetName: dataset });
    const second = await saveCritic({
      actor: SYSTEM_ACTOR.cli,
      input: saveCriticSchema.parse({ ...base, model: "m3" }),
    });
    expect(second).toMatchObject({ version: 2, createdVersion: true });
    [row] = (await listCritics({ actor: SYSTEM_ACTOR.cli })).filter((c) => c.name === name);
    expect(row.versions.map((v) => [v.number, v.model])).toEqual([
      [2, "m3"],
      [1, "m2"],
    ]);

    // The key is sealed at rest and appears in no answer or audit row.
    expect(row.hasStoredKey).toBe(true);
    expect(JSON.stringify(row)).not.toContain("sk-very-secret-key");
    const stored = await prisma().critic.findUniqueOrThrow({ where: { name }, select: { apiKeySealed: true } });
    expect(stored.apiKeySealed).not.toContain("sk-very-secret-key");
    const audit = await prisma().auditEvent.findMany({ where: { targetType: "Critic", targetId: row.id } });
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit)).not.toContain("sk-very-secret-key");
  });

  it("lists the record files' verdicts as the built-in critic 'imported', which cannot be overwritten or run", async () => {
    const imported = (await listCritics({ actor: SYSTEM_ACTOR.cli })).find((c) => c.name === "imported");
    expect(imported).toMatchObject({ kind: "IMPORTED", versions: [{ number: 1 }] });
    expect(saveCriticSchema.safeParse({ name: "imported", baseUrl: fake.baseUrl, model: "m" }).success).toBe(false);
    const dataset = await datasetWith(["pass"]);
    await expect(
      openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName: "imported", datasetName: dataset }),
    ).rejects.toThrow(/cannot be run/);
  });

  it("refuses a template with an unknown placeholder", () => {
    const parsed = saveCriticSchema.safeParse({
      name: "x",
      baseUrl: fake.baseUrl,
      model: "m",
      template: "{{questoin}}",
    });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain("{{questoin}}");
  });
});

describe("critic runs against the fake endpoint", () => {
  it("keeps every reply: verdicts parse (bare or in a Markdown fence), prose and non-JSON bodies are unreadable", async () => {
    const dataset = await datasetWith(["pass", "fail", "fence", "prose", "body"]);
    const name = await critic();
    const { progress, outcome } = await run(name, dataset, ({ prompt }) => {
      const word = caseOf(prompt);
      if (word === "fail")
        return { content: criticAnswer({ pass: false, failedRules: ["Exception Swallowing"], confidence: 0.8 }) };
      if (word === "fence")
        return { content: `Here is my review.\n\`\`\`json\n${criticAnswer({ pass: false })}\n\`\`\`\n` };
      if (word === "prose") return { content: "The record looks mostly fine to me, I think." };
      if (word === "body") return { body: "upstream proxy says hello" };
      return { content: criticAnswer({ pass: true }), usage: { prompt_tokens: 100, completion_tokens: 10 } };
    });
    expect(outcome).toBe("finished");
    expect(progress).toMatchObject({
      status: "SUCCEEDED",
      total: 5,
      done: 5,
      parsed: 3,
      unreadable: 2,
      pass: 1,
      fail: 2,
      errored: 0,
    });
    const { results } = await listCriticRunResults({ actor: SYSTEM_ACTOR.cli, runId: progress.runId });
    const unreadable = results.filter((r) => r.status === "UNREADABLE");
    expect(unreadable.map((r) => r.raw).sort()).toEqual([
      "The record looks mostly fine to me, I think.",
      "upstream proxy says hello",
    ]);
    expect(unreadable.every((r) => r.overallPass === null)).toBe(true);
    const failed = results.find((r) => r.failedRules.includes("Exception Swallowing"));
    expect(failed).toMatchObject({ status: "PARSED", overallPass: false, confidence: 0.8 });
    expect(failed?.raw).toContain('"overall_pass":false');
    // Usage as reported; the body that was not a chat completion reported none.
    expect(results.find((r) => r.promptTokens === 100)).toMatchObject({ completionTokens: 10, overallPass: true });
    expect(progress.promptTokens).toBe(results.reduce((sum, r) => sum + (r.promptTokens ?? 0), 0));
    expect(progress.promptTokens).toBeGreaterThan(100);
  });

  it("retries a 429 after the Retry-After it names, and a 500, then keeps the answer", async () => {
    const dataset = await datasetWith(["ratelimited", "broken"]);
    const name = await critic();
    const seen = new Map<string, number[]>();
    const { progress } = await run(name, dataset, ({ prompt, receivedAt }) => {
      const word = caseOf(prompt);
      const times = [...(seen.get(word) ?? []), receivedAt];
      seen.set(word, times);
      if (word === "ratelimited" && times.length === 1) return { status: 429, headers: { "retry-after": "1" } };
      if (word === "broken" && times.length === 1) return { status: 500 };
      return { content: criticAnswer({ pass: true }) };
    });
    expect(progress).toMatchObject({ status: "SUCCEEDED", parsed: 2, pass: 2, errored: 0 });
    const limited = seen.get("ratelimited")!;
    expect(limited).toHaveLength(2);
    // The header asked for one second; the backoff alone would have waited 10–20 ms.
    expect(limited[1] - limited[0]).toBeGreaterThanOrEqual(950);
    expect(seen.get("broken")).toHaveLength(2);
    const { results } = await listCriticRunResults({ actor: SYSTEM_ACTOR.cli, runId: progress.runId });
    expect(results.map((r) => r.attempts).sort()).toEqual([2, 2]);
  });

  it("gives up on a reply slower than the timeout after its attempts: an error, neither pass nor fail, asked again by the next run", async () => {
    const dataset = await datasetWith(["slow", "pass"]);
    const name = await critic({ timeoutMs: 1000 });
    const first = await run(name, dataset, ({ prompt }) =>
      caseOf(prompt) === "slow"
        ? { delayMs: 2_500, content: criticAnswer({ pass: true }) }
        : { content: criticAnswer({ pass: true }) },
    );
    expect(first.progress).toMatchObject({ status: "SUCCEEDED", done: 2, parsed: 1, pass: 1, fail: 0, errored: 1 });
    const { results } = await listCriticRunResults({
      actor: SYSTEM_ACTOR.cli,
      runId: first.progress.runId,
      status: "ERROR",
    });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ attempts: 3, overallPass: null });
    expect(results[0].error).toMatch(/no answer within 1000 ms/);

    // A second run of the same version asks only about the record that failed.
    const before = fake.requests.length;
    const second = await run(name, dataset, () => ({ content: criticAnswer({ pass: false }) }));
    expect(fake.requests.length - before).toBe(1);
    expect(second.progress).toMatchObject({ total: 2, done: 2, parsed: 2, pass: 1, fail: 1, errored: 0 });
  });

  it("ends a stretch at its budget plus grace however slow the endpoint is, leaving the unanswered records pending", async () => {
    const dataset = await datasetWith(["slow", "pass"]);
    const name = await critic({ timeoutMs: 60_000 });
    const started = Date.now();
    const first = await run(
      name,
      dataset,
      ({ prompt }) =>
        caseOf(prompt) === "slow"
          ? { delayMs: 20_000, content: criticAnswer({ pass: true }) }
          : { content: criticAnswer({ pass: true }) },
      { budgetMs: 300, graceMs: 700 },
    );
    // Without the grace cut the slow request would hold the stretch for its 20 s reply.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(first.outcome).toBe("continue");
    expect(first.progress).toMatchObject({ status: "RUNNING", done: 1, pass: 1, errored: 0 });

    // The next stretch asks again about the dropped record only.
    const before = fake.requests.length;
    fake.setScript(() => ({ content: criticAnswer({ pass: false }) }));
    expect(await processCriticRun({ runId: first.start.runId, retry: FAST_RETRY })).toBe("finished");
    expect(fake.requests.length - before).toBe(1);
  });

  it("asks at most `concurrency` at once", async () => {
    const dataset = await datasetWith(Array.from({ length: 12 }, () => "pass"));
    const name = await critic({ concurrency: 4 });
    const fresh = await startFakeOpenAI(() => ({ delayMs: 100, content: criticAnswer({ pass: true }) }));
    try {
      await saveCritic({
        actor: SYSTEM_ACTOR.cli,
        input: saveCriticSchema.parse({ name, baseUrl: fresh.baseUrl, model: "fake-model", concurrency: 4 }),
      });
      const start = await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName: name, datasetName: dataset });
      expect(await processCriticRun({ runId: start.runId, retry: FAST_RETRY })).toBe("finished");
      expect(fresh.requests).toHaveLength(12);
      expect(fresh.maxInFlight()).toBe(4);
    } finally {
      await fresh.close();
    }
  });

  it("sends the key from the named environment variable, and fails the run with the reason when it is unset", async () => {
    const dataset = await datasetWith(["pass"]);
    const name = await critic({ apiKeyEnv: "VERITY_CRITIC_KEY_TEST" });
    process.env.VERITY_CRITIC_KEY_TEST = "sk-from-env";
    const before = fake.requests.length;
    const ok = await run(name, dataset, () => ({ content: criticAnswer({ pass: true }) }));
    expect(ok.progress.status).toBe("SUCCEEDED");
    expect(fake.requests[before].authorization).toBe("Bearer sk-from-env");

    delete process.env.VERITY_CRITIC_KEY_TEST;
    const otherDataset = await datasetWith(["pass"]);
    const failed = await run(name, otherDataset, () => ({ content: criticAnswer({ pass: true }) }));
    expect(failed.progress).toMatchObject({ status: "FAILED", done: 0 });
    expect(failed.progress.stopReason).toContain("VERITY_CRITIC_KEY_TEST");
  });

  it("stops at a pause, resumes without asking a finished record again, and a cancel stops for good", async () => {
    const dataset = await datasetWith(Array.from({ length: 10 }, () => "pass"));
    const name = await critic({ concurrency: 1 });
    fake.setScript(() => ({ delayMs: 150, content: criticAnswer({ pass: true }) }));
    const start = await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName: name, datasetName: dataset });
    const before = fake.requests.length;
    const working = processCriticRun({ runId: start.runId, retry: FAST_RETRY });
    await new Promise((resolve) => setTimeout(resolve, 600));
    await changeCriticRunStatus({ actor: SYSTEM_ACTOR.cli, runId: start.runId, action: "pause" });
    expect(await working).toBe("stopped");
    const paused = await getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: start.runId });
    expect(paused.status).toBe("PAUSED");
    expect(paused.done).toBeGreaterThan(0);
    expect(paused.done).toBeLessThan(10);
    // Nothing is asked while paused.
    expect(await processCriticRun({ runId: start.runId, retry: FAST_RETRY })).toBe("stopped");

    await changeCriticRunStatus({ actor: SYSTEM_ACTOR.cli, runId: start.runId, action: "resume" });
    expect(await processCriticRun({ runId: start.runId, retry: FAST_RETRY })).toBe("finished");
    const prompts = fake.requests.slice(before).map((request) => request.prompt);
    expect(prompts).toHaveLength(10);
    expect(new Set(prompts).size).toBe(10);
    expect(await getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: start.runId })).toMatchObject({
      status: "SUCCEEDED",
      done: 10,
    });

    const other = await openCriticRun({
      actor: SYSTEM_ACTOR.cli,
      criticName: name,
      datasetName: await datasetWith(["pass", "pass"]),
    });
    await changeCriticRunStatus({ actor: SYSTEM_ACTOR.cli, runId: other.runId, action: "cancel" });
    await expect(
      changeCriticRunStatus({ actor: SYSTEM_ACTOR.cli, runId: other.runId, action: "resume" }),
    ).rejects.toThrow(/cancelled/);
    expect(await processCriticRun({ runId: other.runId, retry: FAST_RETRY })).toBe("stopped");
  });

  it("resumes after a crash without redoing the records it had finished", async () => {
    const dataset = await datasetWith(Array.from({ length: 8 }, () => "pass"));
    const name = await critic({ concurrency: 2 });
    fake.setScript(() => ({ delayMs: 120, content: criticAnswer({ pass: true }) }));
    const start = await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName: name, datasetName: dataset });
    const before = fake.requests.length;
    // The worker dies: its requests in flight are lost, its stored answers stay.
    const crash = new AbortController();
    const working = processCriticRun({ runId: start.runId, retry: FAST_RETRY, signal: crash.signal });
    // Killed once a couple of answers are stored (waiting on the database, not the clock: the machine may be slow).
    for (let attempt = 0; attempt < 600; attempt++) {
      if ((await prisma().criticResult.count({ where: { runId: start.runId } })) >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    crash.abort();
    expect(await working).toBe("stopped");
    const stored = await prisma().criticResult.findMany({
      where: { runId: start.runId },
      select: { record: { select: { question: true } } },
    });
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.length).toBeLessThan(8);

    // The run is still RUNNING; opening it again resumes it.
    const again = await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName: name, datasetName: dataset });
    expect(again).toMatchObject({ runId: start.runId, resumed: true });
    const resumedFrom = fake.requests.length;
    expect(await processCriticRun({ runId: start.runId, retry: FAST_RETRY })).toBe("finished");
    const askedAfter = fake.requests.slice(resumedFrom).map((request) => request.prompt);
    for (const { record } of stored) expect(askedAfter.some((prompt) => prompt.includes(record.question))).toBe(false);
    expect(askedAfter).toHaveLength(8 - stored.length);
    expect(fake.requests.length - before).toBeGreaterThanOrEqual(8);
    expect(await getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: start.runId })).toMatchObject({
      done: 8,
      pass: 8,
    });
  });

  it("runs as a queued job drained by the critic workers", async () => {
    const dataset = await datasetWith(["pass", "fail", "prose"]);
    const name = await critic();
    fake.setScript(({ prompt }) => {
      const word = caseOf(prompt);
      return word === "prose" ? { content: "no idea" } : { content: criticAnswer({ pass: word === "pass" }) };
    });
    const start = await startCriticRun({ actor: SYSTEM_ACTOR.cli, criticName: name, datasetName: dataset });
    await startCriticWorkers(1);
    let progress = await getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: start.runId });
    for (let attempt = 0; attempt < 200 && progress.status === "RUNNING"; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      progress = await getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: start.runId });
    }
    expect(progress).toMatchObject({ status: "SUCCEEDED", total: 3, parsed: 2, unreadable: 1, pass: 1, fail: 1 });
  });
});
