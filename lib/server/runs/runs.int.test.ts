// Interactive runs against a real database and real bubblewrap: what is stored, how much, for how
// long, and how many runs one user (and everyone) may have going at once.

import { afterEach, describe, expect, it } from "vitest";

import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { pruneScratchRuns } from "@/lib/server/runs/runs";
import { runRecord } from "@/lib/server/runs/run-record";
import { AppError } from "@/lib/server/errors";
import { findBubblewrap, skipWithoutSandbox } from "@/lib/testing/sandbox-gate";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { setEnv } from "@/lib/testing/env";

// The run limits are read once, when this file's sandbox router is first built: two sandbox slots,
// one more interactive run may wait, two runs at once per user.
setEnv({ VERITY_SANDBOX_CONCURRENCY: "2" });
setEnv({ VERITY_RUN_QUEUE: "1" });
setEnv({ VERITY_RUNS_PER_USER: "2" });
// The router is process-wide (on globalThis) and may survive an earlier test file: build this file's own.
delete (globalThis as { veritySandboxRouter?: unknown }).veritySandboxRouter;

// Skipped without bubblewrap, except in CI, where that fails the run.
const hasBwrap = !skipWithoutSandbox(findBubblewrap() ? null : "bubblewrap is not installed");
const needs = "(needs bubblewrap: npm run sandbox:install)";

async function makeRecordId(overrides: Record<string, unknown> = {}): Promise<number> {
  const admin = await makeUser("ADMIN");
  const dataset = uniqueName("runs");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl([makeRecord(uniqueName("r").replace(/-/g, "_"), overrides)])),
    skipInvalid: false,
    origin: "api",
  });
  const record = await prisma().record.findFirstOrThrow({
    where: { dataset: { name: dataset } },
    select: { id: true, datasetId: true, language: true },
  });
  // Annotators see only datasets with a campaign in their languages.
  await prisma().campaign.create({
    data: {
      name: uniqueName("campaign"),
      datasetId: record.datasetId,
      seed: "s",
      languages: [record.language],
      createdById: admin.id,
    },
  });
  return record.id;
}

/** An annotator who knows the languages these tests run. */
const makeAnnotator = () => makeUser("ANNOTATOR", ["python", "swift"]);

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const sleeper = (seconds: number) => `import time\ntime.sleep(${seconds})\n`;

describe("storing runs", () => {
  it.skipIf(!hasBwrap)(`stores a program's NUL bytes escaped instead of failing the run ${needs}`, async () => {
    const user = await makeAnnotator();
    const recordId = await makeRecordId();
    const [run] = await runRecord({
      actor: user,
      recordId,
      kind: "scratch",
      solution: 'import sys\nsys.stdout.write("a\\0b")\nsys.stderr.write("c\\0d")\n',
      test: "",
    });
    expect(run.outcome).toBe("PASSED");
    expect(run.stdout).toBe("a\u2400b");
    const stored = await prisma().runResult.findUniqueOrThrow({
      where: { id: run.id },
      select: { stdout: true, stderr: true },
    });
    expect(stored).toEqual({ stdout: "a\u2400b", stderr: "c\u2400d" });
  });

  it.skipIf(!hasBwrap)(`stores the first and last 32 KiB of a long output, flagged truncated ${needs}`, async () => {
    const user = await makeAnnotator();
    const recordId = await makeRecordId();
    const [run] = await runRecord({
      actor: user,
      recordId,
      kind: "scratch",
      solution: 'print("BEGIN")\nfor i in range(20000):\n    print("line", i)\nprint("END")\n',
      test: "",
    });
    const stored = await prisma().runResult.findUniqueOrThrow({
      where: { id: run.id },
      select: { stdout: true, stdoutTruncated: true },
    });
    expect(stored.stdoutTruncated).toBe(true);
    expect(Buffer.byteLength(stored.stdout)).toBeLessThan(64 * 1024 + 100);
    expect(stored.stdout.startsWith("BEGIN\nline 0\n")).toBe(true);
    expect(stored.stdout.endsWith("line 19999\nEND\n")).toBe(true);
    expect(stored.stdout).toMatch(/\[… \d+ bytes cut …\]/);
    expect(run.stdout).toBe(stored.stdout);
  });
});

describe("scratch run retention", () => {
  afterEach(() => {
    setEnv({ VERITY_SCRATCH_KEEP: undefined });
  });

  it("keeps a user's newest scratch runs and those attached to a label, and drops old ones", async () => {
    const user = await makeAnnotator();
    const other = await makeAnnotator();
    const recordId = await makeRecordId();
    const day = 24 * 60 * 60_000;
    const base = {
      recordId,
      kind: "SCRATCH" as const,
      backend: "local",
      outcome: "PASSED",
      stdout: "",
      stderr: "",
      timeMs: 1,
      program: "",
    };
    const make = (userId: string, ageMs: number) =>
      prisma().runResult.create({
        data: { ...base, userId, createdAt: new Date(Date.now() - ageMs) },
        select: { id: true },
      });
    const mine = [];
    for (let index = 0; index < 5; index++) mine.push(await make(user.id, index * 60_000));
    const ancient = await make(other.id, 40 * day);
    const recentOther = await make(other.id, 60_000);
    // The oldest of mine is evidence for a label: it stays whatever its age or rank.
    const evidence = await make(user.id, 50 * day);
    const annotationId = await labelEvidence(user.id, recordId);
    await prisma().runResult.update({ where: { id: evidence.id }, data: { annotationId } });

    await pruneScratchRuns({ userId: user.id, keep: 3, maxAgeDays: 30 });

    const left = await prisma().runResult.findMany({ where: { recordId }, select: { id: true } });
    const ids = new Set(left.map((row) => row.id));
    expect([...mine.slice(0, 3), evidence, recentOther].every((row) => ids.has(row.id))).toBe(true);
    expect(ids.has(mine[3].id) || ids.has(mine[4].id) || ids.has(ancient.id)).toBe(false);
  });

  it.skipIf(!hasBwrap)(`prunes on every scratch run, as configured by VERITY_SCRATCH_KEEP ${needs}`, async () => {
    setEnv({ VERITY_SCRATCH_KEEP: "2" });
    const user = await makeAnnotator();
    const recordId = await makeRecordId();
    for (let index = 0; index < 3; index++)
      await runRecord({ actor: user, recordId, kind: "scratch", solution: `print(${index})\n`, test: "" });
    const left = await prisma().runResult.findMany({
      where: { userId: user.id, kind: "SCRATCH" },
      select: { stdout: true },
      orderBy: { createdAt: "asc" },
    });
    expect(left.map((run) => run.stdout)).toEqual(["1\n", "2\n"]);
  });
});

describe("run admission", () => {
  it.skipIf(!hasBwrap)(
    `refuses a user's third run at once with 429, while another user still runs ${needs}`,
    async () => {
      const user = await makeAnnotator();
      const other = await makeAnnotator();
      const recordId = await makeRecordId();
      const slow = () => runRecord({ actor: user, recordId, kind: "scratch", solution: sleeper(1.5), test: "" });
      // Started together, the three are admitted in whatever order their record lookups finish: one is refused.
      const mine = Promise.allSettled([slow(), slow(), slow()]);
      const [otherRun] = await runRecord({
        actor: other,
        recordId,
        kind: "scratch",
        solution: "print('hi')\n",
        test: "",
      });
      expect(otherRun.outcome).toBe("PASSED");
      const refused = (await mine).filter((result) => result.status === "rejected");
      expect(refused).toHaveLength(1);
      expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
        code: "RATE_LIMITED",
        message: expect.stringMatching(/already have 2 runs/),
      });
      // Once they finished, the user may run again.
      await expect(slow()).resolves.toHaveLength(1);
    },
  );

  it("limits a user's rate of runs in runRecord itself, so the REST route and the page's action share one budget", async () => {
    const user = await makeAnnotator();
    // A record the user cannot see: each attempt is paid for, then refused as NOT_FOUND, and no program runs.
    const attempts = [];
    for (let index = 0; index < 21; index++)
      attempts.push((await rejection(runRecord({ actor: user, recordId: 999_999_999, kind: "demo" }))).code);
    expect(attempts.slice(0, 20)).toEqual(Array(20).fill("NOT_FOUND"));
    expect(attempts[20]).toBe("RATE_LIMITED");
    // Another user's budget is their own.
    expect(
      (await rejection(runRecord({ actor: await makeAnnotator(), recordId: 999_999_999, kind: "demo" }))).code,
    ).toBe("NOT_FOUND");
  });

  it.skipIf(!hasBwrap)(`answers 429 "busy" when the sandbox queue is full ${needs}`, async () => {
    const users = [await makeAnnotator(), await makeAnnotator()];
    const recordId = await makeRecordId();
    const slow = (index: number) =>
      runRecord({ actor: users[index], recordId, kind: "scratch", solution: sleeper(1.5), test: "" });
    // Two slots and a queue of one: three runs are admitted, whichever comes fourth is refused.
    const results = await Promise.allSettled([slow(0), slow(0), slow(1), slow(1)]);
    const refused = results.filter((result) => result.status === "rejected");
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
      code: "RATE_LIMITED",
      message: expect.stringMatching(/sandbox is busy/i),
    });
  });
});

describe("a language that cannot run", () => {
  it("tells the user in a plain sentence, without operator commands or settings", async () => {
    const user = await makeAnnotator();
    // No Swift toolchain is installed on the local backend here, and no acb sandbox is configured.
    const recordId = await makeRecordId({
      language: "swift",
      canonical_solution: "func f() -> Int { 1 }\n",
      demo_test_func: "assert(f() == 1)\n",
      full_test_func: "assert(f() == 1)\n",
    });
    const error = await rejection(runRecord({ actor: user, recordId, kind: "demo" }));
    expect(error.code).toBe("SANDBOX_FAILED");
    expect(error.message).toBe("Swift can't run right now; your admin has been told.");
  });
});

/** A submitted label by `userId` on a campaign item for `recordId`; returns its id. */
async function labelEvidence(userId: string, recordId: number): Promise<string> {
  const record = await prisma().record.findUniqueOrThrow({ where: { id: recordId }, select: { datasetId: true } });
  const campaign = await prisma().campaign.create({
    data: {
      name: uniqueName("campaign"),
      datasetId: record.datasetId,
      seed: "s",
      languages: ["python"],
      createdById: userId,
    },
    select: { id: true },
  });
  const item = await prisma().campaignItem.create({
    data: { campaignId: campaign.id, recordId, language: "python", position: 0, target: 1 },
    select: { id: true },
  });
  const annotation = await prisma().annotation.create({
    data: { itemId: item.id, userId, valid: true, categories: [], activeMs: 1 },
    select: { id: true },
  });
  return annotation.id;
}
