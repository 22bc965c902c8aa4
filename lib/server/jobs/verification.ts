import "server-only";

import { availableParallelism } from "node:os";

import type { Language } from "@/lib/records/languages";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import type { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "@/lib/server/db/client";
import { runResultColumns } from "@/lib/server/db/runs";
import { AppError } from "@/lib/server/errors";
import { summarizeOutcome, UNAVAILABLE } from "@/lib/records/verification";
import { runInSandbox, SandboxError, type SandboxResult } from "@/lib/server/sandbox";
import { runSteadily } from "@/lib/server/sandbox/steady";

import { getBoss } from "./boss";

export const VERIFY_QUEUE = "verify-record";
const ENQUEUE_CHUNK = 1000;

type VerifyJob = { batchId: string; recordId: number };

/** Per language: records that pass, fail, cannot run here (unavailable), and were never verified. */
export type LanguageVerification = { records: number; executableValid: number; failed: number; unavailable: number; notRun: number };

export type VerificationProgress = {
  batchId: string;
  dataset: string;
  language: string | null;
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  total: number;
  done: number;
  executableValid: number;
  failed: number;
  unavailable: number;
  /** Records that could not be verified because of an error (their result could not be stored). */
  errored: number;
};

async function ensureQueue(): Promise<void> {
  const boss = await getBoss();
  if (!(await boss.getQueue(VERIFY_QUEUE))) await boss.createQueue(VERIFY_QUEUE, { name: VERIFY_QUEUE, retryLimit: 3, retryDelay: 5, expireInSeconds: 300 });
}

/**
 * Starts batch verification of a dataset (optionally one language): every record not yet verified
 * (all of them with `force`) gets a queued job. A RUNNING batch with the same scope is resumed
 * instead, so a crashed run picks up where it stopped without rerunning finished records.
 * `actor` is null for the operator CLI. Scope: datasets:verify.
 */
export async function startVerification({ actor, datasetName, language, force }: { actor: Actor | null; datasetName: string; language?: Language; force: boolean }): Promise<{ batchId: string; total: number; resumed: boolean }> {
  if (actor) assertCan(actor, "datasets:verify");
  const dataset = await prisma().dataset.findUnique({ where: { name: datasetName }, select: { id: true } });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  await ensureQueue();
  const running = await prisma().verificationBatch.findFirst({
    where: { datasetId: dataset.id, language: language ?? null, force, status: "RUNNING" },
    select: { id: true, total: true },
    orderBy: { createdAt: "desc" },
  });
  if (running) {
    await enqueueMissing(running.id);
    return { batchId: running.id, total: running.total, resumed: true };
  }

  const where = { datasetId: dataset.id, ...(language ? { language } : {}), ...(force ? {} : { executableValid: null }) };
  const total = await prisma().record.count({ where });
  const batch = await prisma().verificationBatch.create({
    data: { datasetId: dataset.id, language: language ?? null, force, total, createdById: actor?.id ?? null, status: total === 0 ? "SUCCEEDED" : "RUNNING", finishedAt: total === 0 ? new Date() : null },
    select: { id: true },
  });
  await enqueueRecords(batch.id, where);
  return { batchId: batch.id, total, resumed: false };
}

/** Queues a job per matching record, paging through ids so 100,000 records enqueue with flat memory. */
async function enqueueRecords(batchId: string, where: Prisma.RecordWhereInput): Promise<void> {
  const boss = await getBoss();
  let cursor = 0;
  for (;;) {
    const ids = await prisma().record.findMany({ where: { ...where, id: { gt: cursor } }, orderBy: { id: "asc" }, take: ENQUEUE_CHUNK, select: { id: true } });
    if (ids.length === 0) break;
    await boss.insert(ids.map(({ id }) => ({ name: VERIFY_QUEUE, data: { batchId, recordId: id } satisfies VerifyJob })));
    cursor = ids[ids.length - 1].id;
  }
}

/**
 * Resuming a batch whose process died: its unfinished records are queued again. Jobs the dead
 * process held come back too once their lease expires; verifyRecord writes a record's results once
 * per batch, so the duplicates do nothing.
 */
async function enqueueMissing(batchId: string): Promise<void> {
  const batch = await prisma().verificationBatch.findUniqueOrThrow({ where: { id: batchId }, select: { datasetId: true, language: true } });
  await enqueueRecords(batchId, { datasetId: batch.datasetId, ...(batch.language ? { language: batch.language } : {}), runs: { none: { batchId } } });
}

/** What verifying one record came to: both results, a language that cannot run, or an error. */
export type Verdict = { kind: "ran"; demo: SandboxResult; full: SandboxResult } | { kind: "unavailable" } | { kind: "errored"; reason: string };

async function runBoth(record: { language: string; canonicalSolution: string; demoTestFunc: string; fullTestFunc: string }): Promise<Verdict> {
  try {
    const language = record.language as Language;
    const demo = await runSteadily({ language, solution: record.canonicalSolution, test: record.demoTestFunc }, runInSandbox);
    const full = await runSteadily({ language, solution: record.canonicalSolution, test: record.fullTestFunc }, runInSandbox);
    return { kind: "ran", demo, full };
  } catch (error) {
    if (error instanceof SandboxError) return { kind: "unavailable" };
    // Retrying a bug would fail the same way and leave the batch RUNNING for ever.
    console.error(error);
    return { kind: "errored", reason: "the sandbox failed unexpectedly (see the server log)" };
  }
}

/**
 * Verifies one record for a batch: canonical solution against the demo and the full test. A record
 * whose result cannot be stored is marked errored instead, so one bad record never stalls a batch;
 * a job delivered twice (after a crash) finds its results and does nothing.
 */
export async function verifyRecord({ batchId, recordId }: VerifyJob): Promise<void> {
  const done = await prisma().runResult.count({ where: { batchId, recordId } });
  if (done > 0) return;
  const record = await prisma().record.findUnique({ where: { id: recordId }, select: { language: true, canonicalSolution: true, demoTestFunc: true, fullTestFunc: true } });
  if (!record) return;
  await storeVerification({ batchId, recordId, verdict: await runBoth(record) });
}

/**
 * Writes one record's verification: its runs (or a marker run), its executable-valid flag and the
 * batch counters, in one transaction. When that fails (a result the database refuses), the record
 * is stored as errored; only when even that fails (the database is down) does it throw, so the job
 * is retried.
 */
export async function storeVerification({ batchId, recordId, verdict }: VerifyJob & { verdict: Verdict }): Promise<void> {
  try {
    await writeVerification(batchId, recordId, verdict);
  } catch (error) {
    if (verdict.kind === "errored") throw error;
    console.error(`verification: the result of record ${recordId} could not be stored:`, error);
    await writeVerification(batchId, recordId, { kind: "errored", reason: "its result could not be stored (see the server log)" });
  }
}

function markerStderr(verdict: Exclude<Verdict, { kind: "ran" }>): string {
  return verdict.kind === "unavailable" ? "The language is unavailable in the sandbox." : `Verification errored: ${verdict.reason}.`;
}

async function writeVerification(batchId: string, recordId: number, verdict: Verdict): Promise<void> {
  const isValid = verdict.kind === "ran" && verdict.demo.outcome === "PASSED" && verdict.full.outcome === "PASSED";
  const counter = verdict.kind === "ran" ? (isValid ? "executableValid" : "failed") : verdict.kind;
  await prisma().$transaction(async (tx) => {
    // Lock the batch row first: two deliveries of the same job finishing together write once.
    await tx.$queryRaw`SELECT id FROM "VerificationBatch" WHERE id = ${batchId} FOR UPDATE`;
    if ((await tx.runResult.count({ where: { batchId, recordId } })) > 0) return;
    if (verdict.kind === "ran") {
      for (const [kind, result] of [["DEMO", verdict.demo], ["FULL", verdict.full]] as const) {
        await tx.runResult.create({ data: { ...runResultColumns(result), recordId, batchId, kind } });
      }
      const verificationOutcome = summarizeOutcome(verdict.demo.outcome, verdict.full.outcome);
      await tx.record.update({ where: { id: recordId }, data: { executableValid: isValid, verificationOutcome, verifiedAt: new Date() } });
    } else {
      // Unavailable is not failed: executableValid is null (not known), and the record says why.
      if (verdict.kind === "unavailable") {
        await tx.record.update({ where: { id: recordId }, data: { executableValid: null, verificationOutcome: UNAVAILABLE, verifiedAt: new Date() } });
      }
      // A record that could not be verified leaves a marker run, so the job is not repeated.
      await tx.runResult.create({ data: { recordId, batchId, kind: "FULL", backend: "none", outcome: "INTERNAL_ERROR", stdout: "", stderr: markerStderr(verdict), timeMs: 0, program: "" } });
    }
    const batch = await tx.verificationBatch.update({
      where: { id: batchId },
      data: { done: { increment: 1 }, [counter]: { increment: 1 } },
      select: { done: true, total: true },
    });
    if (batch.done >= batch.total) await tx.verificationBatch.updateMany({ where: { id: batchId, status: "RUNNING" }, data: { status: "SUCCEEDED", finishedAt: new Date() } });
  });
}

/** Starts `concurrency` workers draining the verification queue in this process; returns their ids. */
export async function startVerificationWorkers(concurrency = Number(process.env.VERITY_WORKER_CONCURRENCY) || availableParallelism()): Promise<string[]> {
  await ensureQueue();
  const boss = await getBoss();
  const ids: string[] = [];
  for (let index = 0; index < concurrency; index++) {
    let id: string | null = null;
    id = await boss.work<VerifyJob>(VERIFY_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      await verifyRecord(job.data);
      // pg-boss waits out the rest of the polling interval after a job shorter than it; a worker that
      // just finished one asks for the next at once (an empty queue still polls at the interval).
      if (id) boss.notifyWorker(id);
    });
    ids.push(id);
  }
  return ids;
}

/** A batch's counters. Scope: records:read (null actor: operator CLI). */
export async function getVerificationProgress({ actor, batchId }: { actor: Actor | null; batchId: string }): Promise<VerificationProgress> {
  if (actor) assertCan(actor, "records:read");
  const batch = await prisma().verificationBatch.findUnique({
    where: { id: batchId },
    select: { id: true, language: true, status: true, total: true, done: true, executableValid: true, failed: true, unavailable: true, errored: true, dataset: { select: { name: true } } },
  });
  if (!batch) throw new AppError("NOT_FOUND", "No such verification.");
  const { id, dataset, ...counters } = batch;
  return { batchId: id, dataset: dataset.name, ...counters };
}

/** The newest batch of a dataset, for the dataset page. Scope: records:read. */
export async function latestVerification({ actor, datasetName }: { actor: Actor; datasetName: string }): Promise<VerificationProgress | null> {
  assertCan(actor, "records:read");
  const batch = await prisma().verificationBatch.findFirst({ where: { dataset: { name: datasetName } }, orderBy: { createdAt: "desc" }, select: { id: true } });
  return batch ? getVerificationProgress({ actor, batchId: batch.id }) : null;
}

/** Per language: records, executable-valid, failed, unavailable here, and not verified. Scope: records:read. */
export async function verificationByLanguage({ actor, datasetName, language }: { actor: Actor | null; datasetName: string; language?: string }): Promise<Record<string, LanguageVerification>> {
  if (actor) assertCan(actor, "records:read");
  const rows = await prisma().record.groupBy({
    by: ["language", "executableValid", "verificationOutcome"],
    where: { dataset: { name: datasetName }, ...(language ? { language } : {}) },
    _count: { _all: true },
  });
  const byLanguage: Record<string, LanguageVerification> = {};
  for (const row of rows) {
    const entry = (byLanguage[row.language] ??= { records: 0, executableValid: 0, failed: 0, unavailable: 0, notRun: 0 });
    entry.records += row._count._all;
    if (row.executableValid === true) entry.executableValid += row._count._all;
    else if (row.executableValid === false) entry.failed += row._count._all;
    else if (row.verificationOutcome === UNAVAILABLE) entry.unavailable += row._count._all;
    else entry.notRun += row._count._all;
  }
  return byLanguage;
}
