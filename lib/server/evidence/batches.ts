import "server-only";

import { scoreOverRealSurvivors } from "@/lib/evidence/mutation/equivalence";
import type { RunSettings } from "@/lib/server/environments/run-settings";

import type { Prisma } from "@/lib/generated/prisma/client";
import type { MutantStatus } from "@/lib/evidence/mutation";
import type { Language } from "@/lib/records/languages";
import { writeAudit } from "@/lib/server/audit/audit";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { AppError } from "@/lib/server/errors";
import { countFinishedItem, setBatchPaused, stopBatch } from "@/lib/server/jobs/batch-progress";
import { EVIDENCE_QUEUE } from "@/lib/server/workers/queue-names";
import { queuedAheadOf } from "@/lib/server/workers/queue-position";

// The stored side of evidence collection: batches over a dataset, each record's mutation analysis
// and flakiness check. The job queue and the sandbox are driven by lib/server/evidence/jobs.ts.

/** One kind of evidence a worker collects for a record. */
export type EvidenceTask = "mutation" | "flaky";

export type EvidenceBatchStart = { batchId: string; total: number; resumed: boolean; tasks: EvidenceTask[] };

export type EvidenceProgress = {
  batchId: string;
  dataset: string;
  language: string | null;
  mutants: number;
  repeat: number;
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  /** Record tasks: one per record and kind of evidence. */
  total: number;
  done: number;
  errored: number;
  stopReason: string | null;
  /** Paused by a person: still RUNNING, its tasks left until it resumes. */
  isPaused: boolean;
  /** Cancelled by a person: FAILED, and results in flight were not written. */
  isCancelled: boolean;
  /** Jobs the workers take before this batch's first one (other work running, or queued first); 0 once it runs. */
  queuedAhead: number;
};

/** A record's code as a worker needs it to collect evidence. */
export type RecordToProbe = {
  id: number;
  language: string;
  canonicalSolution: string;
  demoTestFunc: string;
  fullTestFunc: string;
  executableValid: boolean | null;
  /** The dataset's harness profile and environment; none: AutoCodeBench's rules, no environment. */
  settings?: RunSettings;
};

const probeSelect = {
  id: true,
  language: true,
  canonicalSolution: true,
  demoTestFunc: true,
  fullTestFunc: true,
  executableValid: true,
} as const satisfies Prisma.RecordSelect;

export function tasksOf(batch: { mutants: number; repeat: number }): EvidenceTask[] {
  return [...(batch.mutants > 0 ? (["mutation"] as const) : []), ...(batch.repeat > 0 ? (["flaky"] as const) : [])];
}

function batchRecordsWhere(batch: { datasetId: string; language: string | null }): Prisma.RecordWhereInput {
  return { datasetId: batch.datasetId, ...(batch.language ? { language: batch.language } : {}) };
}

/**
 * A RUNNING batch with the same scope (dataset, language, mutants, repeat) when there is one,
 * resumed; otherwise a new batch over every record of the dataset (or language), one task per
 * record and kind of evidence. Scope: datasets:verify.
 */
export async function openEvidenceBatch({
  actor,
  datasetName,
  language,
  mutants,
  repeat,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  language?: Language;
  mutants: number;
  repeat: number;
}): Promise<EvidenceBatchStart> {
  assertCan(actor, "datasets:verify");
  const dataset = await prisma().dataset.findUnique({ where: { name: datasetName }, select: { id: true } });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  const tasks = tasksOf({ mutants, repeat });
  if (tasks.length === 0) throw new AppError("INVALID_INPUT", "Ask for mutants, repeats or both.");
  const scope = { datasetId: dataset.id, language: language ?? null, mutants, repeat };
  const running = await prisma().evidenceBatch.findFirst({
    where: { ...scope, status: "RUNNING" },
    select: { id: true, total: true },
    orderBy: { createdAt: "desc" },
  });
  if (running) {
    // Starting the same work again is resuming it, paused or not.
    await setEvidenceBatchPaused({ actor, batchId: running.id, isPaused: false });
    return { batchId: running.id, total: running.total, resumed: true, tasks };
  }
  const records = await prisma().record.count({ where: batchRecordsWhere(scope) });
  const total = records * tasks.length;
  // Batch work is audited as any change is: who started it, on what, in the same transaction.
  const batch = await prisma().$transaction(async (tx) => {
    const created = await tx.evidenceBatch.create({
      data: {
        ...scope,
        total,
        createdById: personIdOf(actor),
        status: total === 0 ? "SUCCEEDED" : "RUNNING",
        finishedAt: total === 0 ? new Date() : null,
      },
      select: { id: true },
    });
    await writeAudit(tx, {
      actorId: personIdOf(actor),
      action: "dataset.evidence",
      targetType: "Dataset",
      targetId: dataset.id,
      after: { batchId: created.id, language: scope.language, mutants, repeat, records },
    });
    return created;
  });
  return { batchId: batch.id, total, resumed: false, tasks };
}

/**
 * The ids of a batch's records still missing the given evidence, page by page (flat memory at
 * 100,000 records). No permission check: the caller opened the batch.
 */
export async function* recordIdsForEvidence({
  batchId,
  task,
  pageSize,
}: {
  batchId: string;
  task: EvidenceTask;
  pageSize: number;
}): AsyncGenerator<number[]> {
  const batch = await prisma().evidenceBatch.findUniqueOrThrow({
    where: { id: batchId },
    select: { datasetId: true, language: true },
  });
  const where: Prisma.RecordWhereInput = {
    ...batchRecordsWhere(batch),
    ...(task === "mutation" ? { mutationAnalyses: { none: { batchId } } } : { flakyChecks: { none: { batchId } } }),
  };
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
 * The batch's settings, or null when it is not running (paused, stopped or finished: its queued jobs
 * do nothing; resuming a paused batch queues what it lacks again).
 */
async function runningBatch(batchId: string) {
  const batch = await prisma().evidenceBatch.findUnique({
    where: { id: batchId },
    select: { status: true, pausedAt: true, mutants: true, repeat: true },
  });
  return batch?.status === "RUNNING" && batch.pausedAt === null ? batch : null;
}

/**
 * What a worker needs for one record task of a batch: the record and the batch's settings; null
 * when the batch has the result already (a job delivered twice), stopped, or the record is gone.
 * Scope: datasets:verify.
 */
export async function findRecordForEvidence({
  actor,
  batchId,
  recordId,
  task,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  recordId: number;
  task: EvidenceTask;
}): Promise<{ record: RecordToProbe; mutants: number; repeat: number } | null> {
  assertCan(actor, "datasets:verify");
  const batch = await runningBatch(batchId);
  if (!batch) return null;
  const done =
    task === "mutation"
      ? await prisma().mutationAnalysis.count({ where: { batchId, recordId } })
      : await prisma().flakyCheck.count({ where: { batchId, recordId } });
  if (done > 0) return null;
  const record = await prisma().record.findUnique({ where: { id: recordId }, select: probeSelect });
  return record ? { record, mutants: batch.mutants, repeat: batch.repeat } : null;
}

/** A record's code for evidence collected on request (not in a batch). Scope: datasets:verify. */
export async function findRecordToProbe({
  actor,
  recordId,
}: {
  actor: Actor | SystemActor;
  recordId: number;
}): Promise<RecordToProbe> {
  assertCan(actor, "datasets:verify");
  const record = await prisma().record.findUnique({ where: { id: recordId }, select: probeSelect });
  if (!record) throw new AppError("NOT_FOUND", "No such record.");
  return record;
}

/**
 * A record's code for evidence recomputed on an accepted repair, with the mutants its last analysis
 * asked for (null: never measured); null when the record is no longer at that revision (a later
 * repair's own job measures it). Scope: datasets:verify.
 */
export async function findRecordAtRevision({
  actor,
  recordId,
  revision,
}: {
  actor: Actor | SystemActor;
  recordId: number;
  revision: number;
}): Promise<{ record: RecordToProbe; lastMutants: number | null } | null> {
  assertCan(actor, "datasets:verify");
  const record = await prisma().record.findFirst({
    where: { id: recordId, revision },
    select: {
      ...probeSelect,
      mutationAnalyses: { orderBy: { createdAt: "desc" }, take: 1, select: { requested: true } },
    },
  });
  if (!record) return null;
  const { mutationAnalyses, ...probe } = record;
  return { record: probe, lastMutants: mutationAnalyses[0]?.requested ?? null };
}

export type StoredMutant = {
  position: number;
  operator: string;
  line: number;
  column: number;
  original: string;
  replacement: string;
  before: string;
  after: string;
  demoOutcome: string | null;
  fullOutcome: string | null;
  status: MutantStatus;
  /** Ran in the record's switched program (one compile for all its mutants). */
  isSwitched?: boolean;
  /** Why a mutant of a language that switches was compiled on its own instead. */
  aloneReason?: string | null;
  /** Why a survivor is likely equivalent to the solution (null: a real survivor, or not a survivor). */
  equivalentReason?: string | null;
};

export type MutationResult = {
  requested: number;
  generated: number;
  viable: number;
  killed: number;
  demoKilled: number;
  fullKilled: number;
  stillborn: number;
  /** Mutants whose time-out a busy machine could explain (0 when left out). */
  inconclusive?: number;
  /** Survivors likely equivalent to the solution (0 when left out). */
  likelyEquivalent?: number;
  score: number | null;
  notApplicable: string | null;
  mutants: StoredMutant[];
};

/**
 * Locks a batch's row (two deliveries of one job, or a result and a cancel, then go one after the
 * other) and says whether it was cancelled: a result still in flight then is not written.
 */
async function isCancelledLocked(tx: Prisma.TransactionClient, batchId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ cancelled: boolean }[]>`
    SELECT "cancelledAt" IS NOT NULL AS cancelled FROM "EvidenceBatch" WHERE id = ${batchId} FOR UPDATE`;
  return rows[0]?.cancelled ?? false;
}

/**
 * Pauses or resumes a running batch (a conditional update: a second click changes nothing), audited.
 * Returns whether it changed. Scope: datasets:verify.
 */
export async function setEvidenceBatchPaused({
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
    setBatchPaused(tx.evidenceBatch, { tx, actor, batchId, isPaused, auditAs: "dataset.evidence" }),
  );
}

/**
 * Stores a record's mutation analysis (and its score on the record, for filters), counting it on
 * its batch; a second delivery of the same batch job writes nothing. Scope: datasets:verify.
 */
export async function writeMutationAnalysis({
  actor,
  batchId,
  recordId,
  result,
  isErrored = false,
}: {
  actor: Actor | SystemActor;
  batchId: string | null;
  recordId: number;
  result: MutationResult;
  /** The sandbox failed unexpectedly: counted as errored on the batch. */
  isErrored?: boolean;
}): Promise<void> {
  assertCan(actor, "datasets:verify");
  const { mutants, ...counts } = result;
  await prisma().$transaction(async (tx) => {
    if (batchId) {
      // Lock the batch row first: two deliveries of the same job finishing together write once.
      if (await isCancelledLocked(tx, batchId)) return;
      if ((await tx.mutationAnalysis.count({ where: { batchId, recordId } })) > 0) return;
    }
    // SQL rules run by this insert (prisma/sql): triggers/MutationAnalysis.MutationAnalysis_note_changes_insert.sql,
    // running functions/verity_note_record_changes.sql (CampaignChange).
    await tx.mutationAnalysis.create({
      data: { ...counts, recordId, batchId, createdById: personIdOf(actor), mutants: { create: mutants } },
    });
    // The record's score counts real survivors only: what the weak-tests filter and the suspicion order
    // read. The SQL rules on "Record" (prisma/sql/triggers/Record.*) keep the evidence counts from it.
    const mutationScore =
      counts.score === null ? null : scoreOverRealSurvivors(counts.killed, counts.viable, counts.likelyEquivalent ?? 0);
    await tx.record.update({ where: { id: recordId }, data: { mutationScore } });
    if (batchId) await countFinishedItem(tx.evidenceBatch, { batchId, counters: isErrored ? ["errored"] : [] });
  });
}

/**
 * Stores a record's flakiness check and its flaky flag (null when it could not run), counting it on
 * its batch; a second delivery writes nothing. Scope: datasets:verify.
 */
export async function writeFlakyCheck({
  actor,
  batchId,
  recordId,
  repeats,
  outcomes,
  flaky,
  isErrored = false,
}: {
  actor: Actor | SystemActor;
  batchId: string | null;
  recordId: number;
  repeats: number;
  outcomes: string[];
  flaky: boolean | null;
  isErrored?: boolean;
}): Promise<void> {
  assertCan(actor, "datasets:verify");
  await prisma().$transaction(async (tx) => {
    if (batchId) {
      if (await isCancelledLocked(tx, batchId)) return;
      if ((await tx.flakyCheck.count({ where: { batchId, recordId } })) > 0) return;
    }
    await tx.flakyCheck.create({
      data: { recordId, batchId, repeats, outcomes, flaky, createdById: personIdOf(actor) },
    });
    // SQL rules run by a change of the flag (prisma/sql): triggers/Record.Record_note_changes.sql, running
    // functions/verity_note_execution_changes.sql (CampaignChange).
    if (flaky !== null) await tx.record.update({ where: { id: recordId }, data: { flaky } });
    if (batchId) await countFinishedItem(tx.evidenceBatch, { batchId, counters: isErrored ? ["errored"] : [] });
  });
}

/** Stops a batch whose sandbox cannot run anything, saying why. Scope: datasets:verify. */
export async function stopEvidenceBatch({
  actor,
  batchId,
  reason,
  isCancel = false,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  reason: string;
  /** A person cancelled it: results still in flight are dropped, not written. */
  isCancel?: boolean;
}): Promise<boolean> {
  assertCan(actor, "datasets:verify");
  return prisma().$transaction((tx) =>
    stopBatch(tx.evidenceBatch, { tx, actor, batchId, reason, isCancel, auditAs: "dataset.evidence" }),
  );
}

/** A batch's counters. Scope: records:read. */
export async function getEvidenceProgress({
  actor,
  batchId,
}: {
  actor: Actor | SystemActor;
  batchId: string;
}): Promise<EvidenceProgress> {
  assertCan(actor, "records:read");
  const batch = await prisma().evidenceBatch.findUnique({
    where: { id: batchId },
    select: {
      id: true,
      language: true,
      mutants: true,
      repeat: true,
      status: true,
      total: true,
      done: true,
      errored: true,
      stopReason: true,
      pausedAt: true,
      cancelledAt: true,
      dataset: { select: { name: true } },
    },
  });
  if (!batch) throw new AppError("NOT_FOUND", "No such evidence batch.");
  const { id, dataset, pausedAt, cancelledAt, ...rest } = batch;
  return {
    batchId: id,
    dataset: dataset.name,
    ...rest,
    isPaused: pausedAt !== null,
    isCancelled: cancelledAt !== null,
    queuedAhead: pausedAt ? 0 : await queuedAheadOf(EVIDENCE_QUEUE, batch),
  };
}

/** The newest evidence batch of a dataset, for the dataset page (its progress survives a reload). Scope: records:read. */
export async function latestEvidence({
  actor,
  datasetName,
}: {
  actor: Actor;
  datasetName: string;
}): Promise<EvidenceProgress | null> {
  assertCan(actor, "records:read");
  const batch = await prisma().evidenceBatch.findFirst({
    where: { dataset: { name: datasetName } },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return batch ? getEvidenceProgress({ actor, batchId: batch.id }) : null;
}

export type EvidenceSummary = {
  records: number;
  /** Records with a measured mutation score, and their mean score. */
  measured: number;
  meanScore: number | null;
  /** Records whose score is below the weak-test threshold. */
  weak: number;
  mutants: number;
  viable: number;
  killed: number;
  stillborn: number;
  flaky: number;
  stable: number;
  byLanguage: Record<string, LanguageEvidenceSummary>;
};

/** One language's share of a batch: its mutation counts, its measured records' mean score, its flaky records. */
type LanguageEvidenceSummary = {
  /** Records with a mutation analysis in the batch (measured or not applicable). */
  records: number;
  mutants: number;
  viable: number;
  killed: number;
  stillborn: number;
  measured: number;
  meanScore: number | null;
  weak: number;
  flaky: number;
};

/**
 * What a batch found, for `verity evidence` and the benchmark: mutation counts per language, weak
 * tests below `weakBelow`, flaky and stable records. Counted in SQL. Scope: records:read.
 */
export async function summarizeEvidenceBatch({
  actor,
  batchId,
  weakBelow,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  weakBelow: number;
}): Promise<EvidenceSummary> {
  assertCan(actor, "records:read");
  const [analyses, checks] = await Promise.all([
    prisma().$queryRaw<
      {
        language: string;
        records: number;
        measured: number;
        scoreSum: number | null;
        weak: number;
        mutants: number;
        viable: number;
        killed: number;
        stillborn: number;
      }[]
    >`SELECT r.language, COUNT(*)::int AS records, COUNT(a.score)::int AS measured, SUM(a.score)::float8 AS "scoreSum",
             COUNT(*) FILTER (WHERE a.killed::float8 / NULLIF(a.viable - a."likelyEquivalent", 0) < ${weakBelow})::int AS weak,
             SUM(a.generated)::int AS mutants,
             SUM(a.viable)::int AS viable, SUM(a.killed)::int AS killed, SUM(a.stillborn)::int AS stillborn
        FROM "MutationAnalysis" a JOIN "Record" r ON r.id = a."recordId"
       WHERE a."batchId" = ${batchId} GROUP BY r.language`,
    prisma().$queryRaw<{ language: string; records: number; flaky: number; stable: number }[]>`
      SELECT r.language, COUNT(*)::int AS records, COUNT(*) FILTER (WHERE f.flaky)::int AS flaky,
             COUNT(*) FILTER (WHERE f.flaky = false)::int AS stable
        FROM "FlakyCheck" f JOIN "Record" r ON r.id = f."recordId"
       WHERE f."batchId" = ${batchId} GROUP BY r.language`,
  ]);
  const byLanguage: EvidenceSummary["byLanguage"] = {};
  const entry = (language: string) =>
    (byLanguage[language] ??= {
      records: 0,
      mutants: 0,
      viable: 0,
      killed: 0,
      stillborn: 0,
      measured: 0,
      meanScore: null,
      weak: 0,
      flaky: 0,
    });
  for (const row of analyses)
    Object.assign(entry(row.language), {
      records: row.records,
      mutants: row.mutants,
      viable: row.viable,
      killed: row.killed,
      stillborn: row.stillborn,
      measured: row.measured,
      meanScore: row.measured > 0 ? (row.scoreSum ?? 0) / row.measured : null,
      weak: row.weak,
    });
  for (const row of checks) entry(row.language).flaky = row.flaky;
  const sum = <T>(rows: T[], pick: (row: T) => number | null) =>
    rows.reduce((total, row) => total + (pick(row) ?? 0), 0);
  const measured = sum(analyses, (row) => row.measured);
  return {
    records: Math.max(
      sum(analyses, (row) => row.records),
      sum(checks, (row) => row.records),
    ),
    measured,
    meanScore: measured > 0 ? sum(analyses, (row) => row.scoreSum) / measured : null,
    weak: sum(analyses, (row) => row.weak),
    mutants: sum(analyses, (row) => row.mutants),
    viable: sum(analyses, (row) => row.viable),
    killed: sum(analyses, (row) => row.killed),
    stillborn: sum(analyses, (row) => row.stillborn),
    flaky: sum(checks, (row) => row.flaky),
    stable: sum(checks, (row) => row.stable),
    byLanguage,
  };
}
