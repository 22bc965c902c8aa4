import "server-only";

import type { Prisma } from "@/lib/generated/prisma/client";
import type { Language } from "@/lib/records/languages";
import {
  ENVIRONMENT_FAILURE,
  executableValidity,
  INCONCLUSIVE,
  SANDBOX_ERROR,
  summarizeOutcome,
  UNAVAILABLE,
} from "@/lib/records/verification";
import { environmentFailure } from "@/lib/runs/environment-failure";
import { writeAudit } from "@/lib/server/audit/audit";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, isSystemActor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import type { SandboxResult } from "@/lib/server/sandbox";

import { prisma } from "@/lib/server/db/client";
import { countFinishedItem, setBatchPaused, stopBatch } from "@/lib/server/jobs/batch-progress";
import { runResultColumns } from "@/lib/server/runs/runs";
import { queuedAheadOf } from "@/lib/server/workers/queue-position";
import { VERIFY_QUEUE } from "@/lib/server/workers/queue-names";

// The stored side of batch verification: batches, their counters and each record's runs. The job
// queue and the sandbox are driven by lib/server/verification/jobs.ts.

/**
 * Per language: records that pass, fail, cannot run here (unavailable), failed for want of a
 * dependency (environment: not the record's failure), whose time-out a busy machine could explain
 * (inconclusive), and were never verified.
 */
export type LanguageVerification = {
  records: number;
  executableValid: number;
  failed: number;
  unavailable: number;
  environment: number;
  inconclusive: number;
  notRun: number;
};

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
  /** Records whose run failed because the environment lacks a dependency: not failed, not known. */
  environmentFailed: number;
  /** Records whose time-out could not be told from a busy machine (not known, not failed). */
  inconclusive: number;
  /** Records that could not be verified because of an error (their result could not be stored, the sandbox failed). */
  errored: number;
  /** Runs of each record's tests, each alone, to find flaky ones; 0 when not asked. */
  repeat: number;
  /** Records whose repeated runs gave different outcomes (a state of its own; also counted passed or failed). */
  flaky: number;
  /** Why the batch stopped before its end (status FAILED); null otherwise. */
  stopReason: string | null;
  /** Paused (still RUNNING): the workers leave its records until it is resumed. */
  isPaused: boolean;
  /** A person cancelled it (status FAILED). */
  isCancelled: boolean;
  /** Jobs the workers take before this batch's first one (other work running, or queued first); 0 once it runs or while paused. */
  queuedAhead: number;
};

/** A record's repeated runs for a batch with the flaky option: one "DEMO/FULL" outcome pair per run. */
export type Flakiness = { repeats: number; outcomes: string[]; flaky: boolean | null };

/**
 * What verifying one record came to: both results, a language that cannot run, an error, or a
 * sandbox whose isolation failed before the program started (which stops the batch).
 */
export type Verdict =
  | { kind: "ran"; demo: SandboxResult; full: SandboxResult }
  | { kind: "unavailable" }
  | { kind: "errored"; reason: string }
  | { kind: "sandbox-error"; reason: string };

export type VerificationBatchStart = { batchId: string; total: number; resumed: boolean };

/** The id of the dataset to verify (NOT_FOUND when there is none). Scope: datasets:verify. */
export async function findDatasetToVerify({
  actor,
  datasetName,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
}): Promise<string> {
  assertCan(actor, "datasets:verify");
  const dataset = await prisma().dataset.findUnique({ where: { name: datasetName }, select: { id: true } });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  return dataset.id;
}

/**
 * A RUNNING batch with the same scope (dataset, language, force, repeat) when there is one, resumed;
 * otherwise a new batch over every record not yet verified (all of them with `force`). With
 * `repeat` K (at least 2) each record's tests also run K times, each alone, to find flaky ones.
 * Scope: datasets:verify.
 */
export async function openVerificationBatch({
  actor,
  datasetId,
  language,
  force,
  repeat = 0,
}: {
  actor: Actor | SystemActor;
  datasetId: string;
  language?: Language;
  force: boolean;
  repeat?: number;
}): Promise<VerificationBatchStart> {
  assertCan(actor, "datasets:verify");
  const running = await prisma().verificationBatch.findFirst({
    where: { datasetId, language: language ?? null, force, repeat, status: "RUNNING" },
    select: { id: true, total: true, pausedAt: true },
    orderBy: { createdAt: "desc" },
  });
  if (running) {
    // Starting a paused batch again is resuming it.
    if (running.pausedAt) await setVerificationBatchPaused({ actor, batchId: running.id, isPaused: false });
    return { batchId: running.id, total: running.total, resumed: true };
  }
  const total = await prisma().record.count({
    where: batchRecordsWhere({ datasetId, language: language ?? null, force }),
  });
  // Batch work is audited as any change is: who started it, on what, in the same transaction.
  const batch = await prisma().$transaction(async (tx) => {
    const created = await tx.verificationBatch.create({
      data: {
        datasetId,
        language: language ?? null,
        force,
        repeat,
        total,
        createdById: personIdOf(actor),
        status: total === 0 ? "SUCCEEDED" : "RUNNING",
        finishedAt: total === 0 ? new Date() : null,
      },
      select: { id: true },
    });
    await writeAudit(tx, {
      actorId: personIdOf(actor),
      action: "dataset.verify",
      targetType: "Dataset",
      targetId: datasetId,
      after: { batchId: created.id, language: language ?? null, force, repeat, records: total },
    });
    return created;
  });
  return { batchId: batch.id, total, resumed: false };
}

function batchRecordsWhere({
  datasetId,
  language,
  force,
}: {
  datasetId: string;
  language: string | null;
  force: boolean;
}): Prisma.RecordWhereInput {
  return { datasetId, ...(language ? { language } : {}), ...(force ? {} : { executableValid: null }) };
}

/**
 * The ids of the records a batch has to queue, page by page so 100,000 records enqueue with flat
 * memory. A resumed batch (its process died) queues the records it has no result for yet.
 * No permission check: the caller opened the batch.
 */
export async function* recordIdsToQueue({
  batchId,
  resumed,
  pageSize,
}: {
  batchId: string;
  resumed: boolean;
  pageSize: number;
}): AsyncGenerator<number[]> {
  const batch = await prisma().verificationBatch.findUniqueOrThrow({
    where: { id: batchId },
    select: { datasetId: true, language: true, force: true },
  });
  const where: Prisma.RecordWhereInput = resumed
    ? {
        datasetId: batch.datasetId,
        ...(batch.language ? { language: batch.language } : {}),
        runs: { none: { batchId } },
      }
    : batchRecordsWhere(batch);
  let cursor = 0;
  for (;;) {
    const ids = await prisma().record.findMany({
      where: { ...where, id: { gt: cursor } },
      orderBy: { id: "asc" },
      take: pageSize,
      select: { id: true },
    });
    if (ids.length === 0) return;
    yield ids.map(({ id }) => id);
    cursor = ids[ids.length - 1].id;
  }
}

/**
 * The code a worker verifies a record with; null when the batch has its result already (a job
 * delivered twice) or the record is gone. Scope: datasets:verify.
 */
export async function findRecordToVerify({
  actor,
  batchId,
  recordId,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  recordId: number;
}) {
  assertCan(actor, "datasets:verify");
  // A batch that stopped (its sandbox failed, or cancelled) or is paused leaves its queued records
  // alone; resuming queues again the records it has no result for.
  const batch = await prisma().verificationBatch.findUnique({
    where: { id: batchId },
    select: { status: true, pausedAt: true, repeat: true },
  });
  if (batch?.status !== "RUNNING" || batch.pausedAt) return null;
  const done = await prisma().runResult.count({ where: { batchId, recordId } });
  if (done > 0) return null;
  const record = await prisma().record.findUnique({
    where: { id: recordId },
    select: {
      language: true,
      canonicalSolution: true,
      demoTestFunc: true,
      fullTestFunc: true,
    },
  });
  if (!record) return null;
  return { ...record, repeat: batch.repeat };
}

function markerStderr(verdict: Exclude<Verdict, { kind: "ran" }>): string {
  if (verdict.kind === "unavailable") return "The language is unavailable in the sandbox.";
  if (verdict.kind === "sandbox-error") return `Not run (sandbox error): ${verdict.reason}`;
  return `Verification errored: ${verdict.reason}.`;
}

/** What a record that did not run is marked with: unavailable here, a sandbox error, or nothing. */
function markerOutcome(verdict: Exclude<Verdict, { kind: "ran" }>): string | null {
  if (verdict.kind === "unavailable") return UNAVAILABLE;
  if (verdict.kind === "sandbox-error") return SANDBOX_ERROR;
  return null;
}

/** Why a batch stops at a sandbox error, for the batch page and `verity verify`. */
function sandboxStopReason(reason: string): string {
  return `Stopped: the sandbox failed before a program started, so no record was run (${reason}). Fix the sandbox (npx verity sandbox doctor) and verify again.`;
}

/**
 * Writes one record's verification: its runs (or a marker run), its executable-valid flag, its
 * flakiness check when the batch repeats runs, and the batch counters, in one transaction; a second
 * delivery of the same job writes nothing. Scope: datasets:verify.
 */
export async function writeVerification({
  actor,
  batchId,
  recordId,
  verdict,
  flakiness,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  recordId: number;
  verdict: Verdict;
  flakiness?: Flakiness;
}): Promise<void> {
  assertCan(actor, "datasets:verify");
  // Null when a time-out could not be told from a busy machine: neither valid nor failed.
  const validity = verdict.kind === "ran" ? executableValidity(verdict.demo.outcome, verdict.full.outcome) : null;
  // The test that really failed first decides, as for the outcome: one that failed for want of a
  // dependency says nothing about the record.
  const deciding =
    verdict.kind === "ran" && validity === false
      ? [verdict.demo, verdict.full].find((run) => run.outcome !== "PASSED" && run.outcome !== INCONCLUSIVE)
      : undefined;
  const environment = deciding ? environmentFailure(deciding) : null;
  const counter =
    verdict.kind === "ran"
      ? environment
        ? "environmentFailed"
        : validity === null
          ? "inconclusive"
          : validity
            ? "executableValid"
            : "failed"
      : verdict.kind === "sandbox-error"
        ? "errored"
        : verdict.kind;
  await prisma().$transaction(async (tx) => {
    // Lock the batch row first: two deliveries of the same job finishing together write once, and a
    // result still in flight when a person cancelled the batch is not written.
    const [locked] = await tx.$queryRaw<{ cancelled: boolean }[]>`
      SELECT "cancelledAt" IS NOT NULL AS cancelled FROM "VerificationBatch" WHERE id = ${batchId} FOR UPDATE`;
    if (!locked || locked.cancelled) return;
    if ((await tx.runResult.count({ where: { batchId, recordId } })) > 0) return;
    if (verdict.kind === "ran") {
      for (const [kind, result] of [
        ["DEMO", verdict.demo],
        ["FULL", verdict.full],
      ] as const) {
        await tx.runResult.create({ data: { ...runResultColumns(result), recordId, batchId, kind } });
      }
      // An environment failure is not the record's: executableValid stays null (not known), the
      // record says why, and the next batch verifies it again.
      const verificationOutcome = environment
        ? ENVIRONMENT_FAILURE
        : summarizeOutcome(verdict.demo.outcome, verdict.full.outcome);
      // SQL rules run by a change of the execution result (prisma/sql): triggers/Record.Record_keep_final_labels.sql
      // and Record.Record_note_changes.sql, running functions/verity_record_execution_changed.sql (the kept final
      // labels of the record's items) and verity_note_execution_changes.sql (CampaignChange).
      await tx.record.update({
        where: { id: recordId },
        data: { executableValid: environment ? null : validity, verificationOutcome, verifiedAt: new Date() },
      });
    } else {
      // Unavailable or a sandbox error is not failed: executableValid is null (not known), and the
      // record says why (the next batch verifies it again).
      const verificationOutcome = markerOutcome(verdict);
      if (verificationOutcome) {
        // SQL rules run by a change of the execution result (prisma/sql): triggers/Record.Record_keep_final_labels.sql
        // and Record.Record_note_changes.sql, running functions/verity_record_execution_changed.sql (the kept final
        // labels of the record's items) and verity_note_execution_changes.sql (CampaignChange).
        await tx.record.update({
          where: { id: recordId },
          data: { executableValid: null, verificationOutcome, verifiedAt: new Date() },
        });
      }
      // A record that could not be verified leaves a marker run, so the job is not repeated.
      await tx.runResult.create({
        data: {
          recordId,
          batchId,
          kind: "FULL",
          backend: "none",
          outcome: verdict.kind === "sandbox-error" ? SANDBOX_ERROR : "INTERNAL_ERROR",
          stdout: "",
          stderr: markerStderr(verdict),
          timeMs: 0,
          program: "",
        },
      });
    }
    if (flakiness) {
      await tx.flakyCheck.create({
        data: {
          recordId,
          verificationBatchId: batchId,
          repeats: flakiness.repeats,
          outcomes: flakiness.outcomes,
          flaky: flakiness.flaky,
          createdById: personIdOf(actor),
        },
      });
      // SQL rules run by a change of the flag (prisma/sql): triggers/Record.Record_note_changes.sql, running
      // functions/verity_note_execution_changes.sql (CampaignChange).
      if (flakiness.flaky !== null)
        await tx.record.update({ where: { id: recordId }, data: { flaky: flakiness.flaky } });
    }
    await countFinishedItem(tx.verificationBatch, {
      batchId,
      counters: flakiness?.flaky ? [counter, "flaky"] : [counter],
      canSucceed: verdict.kind !== "sandbox-error",
    });
    // The sandbox cannot run anything: stop here rather than mark every record, and say why.
    if (verdict.kind === "sandbox-error") {
      const reason = sandboxStopReason(verdict.reason);
      await stopBatch(tx.verificationBatch, { tx, actor, batchId, reason, isCancel: false, auditAs: "dataset.verify" });
    }
  });
}

/** A batch's counters. Scope: records:read. */
export async function getVerificationProgress({
  actor,
  batchId,
}: {
  actor: Actor | SystemActor;
  batchId: string;
}): Promise<VerificationProgress> {
  assertCan(actor, "records:read");
  const batch = await prisma().verificationBatch.findUnique({
    where: { id: batchId },
    select: {
      id: true,
      language: true,
      status: true,
      total: true,
      done: true,
      executableValid: true,
      failed: true,
      unavailable: true,
      environmentFailed: true,
      inconclusive: true,
      errored: true,
      repeat: true,
      flaky: true,
      stopReason: true,
      pausedAt: true,
      cancelledAt: true,
      dataset: { select: { name: true } },
    },
  });
  if (!batch) throw new AppError("NOT_FOUND", "No such verification.");
  const { id, dataset, pausedAt, cancelledAt, ...counters } = batch;
  return {
    batchId: id,
    dataset: dataset.name,
    ...counters,
    isPaused: pausedAt !== null && batch.status === "RUNNING",
    isCancelled: cancelledAt !== null,
    queuedAhead: pausedAt ? 0 : await queuedAheadOf(VERIFY_QUEUE, batch),
  };
}

/**
 * Pauses or resumes a running batch (a conditional update: a second click changes nothing), audited.
 * Returns whether it changed. Scope: datasets:verify.
 */
export async function setVerificationBatchPaused({
  actor,
  batchId,
  isPaused,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  isPaused: boolean;
}): Promise<boolean> {
  assertCan(actor, "datasets:verify");
  return prisma().$transaction((tx) =>
    setBatchPaused(tx.verificationBatch, { tx, actor, batchId, isPaused, auditAs: "dataset.verify" }),
  );
}

/**
 * Cancels a running (or paused) batch: it ends FAILED with who cancelled it, and a result still in
 * flight is not written. Returns whether it changed. Scope: datasets:verify.
 */
export async function cancelVerificationBatch({
  actor,
  batchId,
}: {
  actor: Actor | SystemActor;
  batchId: string;
}): Promise<boolean> {
  assertCan(actor, "datasets:verify");
  const reason = `Cancelled by ${isSystemActor(actor) ? "Verity" : (actor.name ?? actor.email)}.`;
  return prisma().$transaction((tx) =>
    stopBatch(tx.verificationBatch, { tx, actor, batchId, reason, isCancel: true, auditAs: "dataset.verify" }),
  );
}

/** The newest batch of a dataset, for the dataset page. Scope: records:read. */
export async function latestVerification({
  actor,
  datasetName,
}: {
  actor: Actor;
  datasetName: string;
}): Promise<VerificationProgress | null> {
  assertCan(actor, "records:read");
  const batch = await prisma().verificationBatch.findFirst({
    where: { dataset: { name: datasetName } },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return batch ? getVerificationProgress({ actor, batchId: batch.id }) : null;
}

/** Per language: records, executable-valid, failed, unavailable here, environment failures, and not verified. Scope: records:read. */
export async function verificationByLanguage({
  actor,
  datasetName,
  language,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  language?: string;
}): Promise<Record<string, LanguageVerification>> {
  assertCan(actor, "records:read");
  const rows = await prisma().record.groupBy({
    by: ["language", "executableValid", "verificationOutcome"],
    where: { dataset: { name: datasetName }, ...(language ? { language } : {}) },
    _count: { _all: true },
  });
  const byLanguage: Record<string, LanguageVerification> = {};
  for (const row of rows) {
    const entry = (byLanguage[row.language] ??= {
      records: 0,
      executableValid: 0,
      failed: 0,
      unavailable: 0,
      environment: 0,
      inconclusive: 0,
      notRun: 0,
    });
    entry.records += row._count._all;
    if (row.executableValid === true) entry.executableValid += row._count._all;
    else if (row.executableValid === false) entry.failed += row._count._all;
    else if (row.verificationOutcome === UNAVAILABLE) entry.unavailable += row._count._all;
    else if (row.verificationOutcome === ENVIRONMENT_FAILURE) entry.environment += row._count._all;
    else if (row.verificationOutcome === INCONCLUSIVE) entry.inconclusive += row._count._all;
    else entry.notRun += row._count._all;
  }
  return byLanguage;
}

/** The outcome of every run of a batch, with its record's line (benchmarks compare two batches). Scope: records:read. */
export async function listBatchOutcomes({
  actor,
  batchId,
}: {
  actor: Actor | SystemActor;
  batchId: string;
}): Promise<{ line: number; kind: "DEMO" | "FULL"; outcome: string }[]> {
  assertCan(actor, "records:read");
  const runs = await prisma().runResult.findMany({
    where: { batchId },
    select: { kind: true, outcome: true, record: { select: { line: true } } },
  });
  return runs.flatMap((run) =>
    run.kind === "SCRATCH" ? [] : [{ line: run.record.line, kind: run.kind, outcome: run.outcome }],
  );
}
