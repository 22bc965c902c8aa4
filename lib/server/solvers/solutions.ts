import "server-only";

import type { SolverEvidence } from "@/lib/evidence/types";
import { readItems } from "@/lib/records/reader";
import { executableValidity, summarizeOutcome, UNAVAILABLE } from "@/lib/records/verification";
import { NO_CODE } from "@/lib/solvers/outcomes";
import {
  describeFileErrors,
  readSolutionLine,
  resolveSolutionLines,
  type SolutionFileError,
  type SolutionLine,
  type SolutionRecord,
} from "@/lib/solvers/solutions-file";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import { writeAudit } from "@/lib/server/audit/audit";
import { evidenceHiddenRecordIds, visibleDatasetWhere } from "@/lib/server/auth/visibility";
import { prisma } from "@/lib/server/db/client";
import { escapeNul } from "@/lib/server/runs/runs";
import type { Verdict } from "@/lib/server/verification/batches";

// Solver results: model outputs imported for a dataset, each run against its record's demo and full
// tests by the batch workers (jobs.ts beside this file). Which models solve a record (k of n)
// and pass@1 per model and language are read from here.

const MAX_LISTED_ERRORS = 50;
const LOOKUP_CHUNK = 1000;
const WRITE_CHUNK = 500;

export type SolutionImportOrigin = "cli" | "web" | "api" | "demo";
/** A batch's origin when it re-runs a record's solutions against an accepted repair (no file). */
const REVISION_ORIGIN = "revision";

export type SolutionImportSummary = {
  dataset: string;
  batchId: string;
  /** Solutions stored (new or replacing the same model's earlier solution for a record). */
  imported: number;
  /** Of them, replies that held no code: stored as not solved, not run. */
  withoutCode: number;
  /** Solutions queued to run. */
  toRun: number;
  models: string[];
};

export type SolutionBatchProgress = {
  batchId: string;
  dataset: string;
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  models: string[];
  total: number;
  done: number;
  passed: number;
  failed: number;
  unavailable: number;
  /** Solutions whose time-out could not be told from a busy machine: not known, not failed. */
  inconclusive: number;
  errored: number;
  stopReason: string | null;
  createdAt: Date;
};

/** The refusal of a bad file: a summary, and each problem once with its lines, "lines 1–14: …" (at most MAX_LISTED_ERRORS). */
function solutionFileRefusal(errors: SolutionFileError[]): AppError {
  const { listed: lines, isCut } = describeFileErrors(errors, MAX_LISTED_ERRORS);
  const more = isCut ? `; the first ${MAX_LISTED_ERRORS} problems are listed` : "";
  return new AppError(
    "INVALID_INPUT",
    `Nothing imported: ${errors.length} bad line${errors.length === 1 ? "" : "s"}${more}.`,
    { file: lines },
  );
}

async function findDataset(actor: Actor | SystemActor, datasetName: string) {
  const dataset = await prisma().dataset.findFirst({
    where: { name: datasetName, ...("kind" in actor ? {} : visibleDatasetWhere(actor)) },
    select: { id: true, name: true },
  });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  return dataset;
}

/**
 * The one import path of model outputs (CLI, REST, upload page): reads the file (JSONL or a JSON
 * array, optionally gzipped), checks every line and looks its record up in the dataset, and stores
 * the solutions all or nothing — any bad line refuses the file (INVALID_INPUT naming each line).
 * A record's solution from a model replaces that model's earlier one, results cleared. Opens a
 * solution batch holding them; the caller queues its runs. Scope: imports:write.
 */
export async function importSolutions({
  actor,
  datasetName,
  source,
  defaultModel,
  origin,
  fileName,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  source: AsyncIterable<Uint8Array | string>;
  defaultModel: string | null;
  origin: SolutionImportOrigin;
  fileName?: string | null;
}): Promise<SolutionImportSummary> {
  assertCan(actor, "imports:write");
  const dataset = await findDataset(actor, datasetName);
  const model = defaultModel?.trim() || null;
  const lines: SolutionLine[] = [];
  for await (const item of readItems(source)) {
    if ("error" in item) lines.push({ line: item.line, key: null, model: null, source: null, problems: [item.error] });
    else lines.push(readSolutionLine(item.line, item.value, model));
  }
  const keys = [...new Set(lines.flatMap((line) => (line.key ? [line.key] : [])))];
  const records = new Map<string, SolutionRecord>();
  for (let start = 0; start < keys.length; start += LOOKUP_CHUNK) {
    const found = await prisma().record.findMany({
      where: { datasetId: dataset.id, key: { in: keys.slice(start, start + LOOKUP_CHUNK) } },
      select: { id: true, key: true, language: true, canonicalSolution: true },
    });
    for (const { key, ...record } of found) records.set(key, record);
  }
  const { solutions, errors } = resolveSolutionLines(lines, {
    datasetName: dataset.name,
    recordOf: (key) => records.get(key),
  });
  if (errors.length > 0) throw solutionFileRefusal(errors);

  const models = [...new Set(solutions.map((solution) => solution.model))].sort();
  const withoutCode = solutions.filter((solution) => solution.code.trim() === "").length;
  const toRun = solutions.length - withoutCode;
  const batchId = await prisma().$transaction(
    async (tx) => {
      const batch = await tx.solutionBatch.create({
        data: {
          datasetId: dataset.id,
          origin,
          fileName: fileName ?? null,
          models,
          total: solutions.length,
          // A reply with no code is decided at once: not solved, nothing to run.
          done: withoutCode,
          failed: withoutCode,
          status: toRun === 0 ? "SUCCEEDED" : "RUNNING",
          finishedAt: toRun === 0 ? new Date() : null,
          createdById: personIdOf(actor),
        },
        select: { id: true },
      });
      for (let start = 0; start < solutions.length; start += WRITE_CHUNK) {
        const rows = solutions.slice(start, start + WRITE_CHUNK).map((solution) => ({
          recordId: solution.recordId,
          model: solution.model,
          code: solution.code,
          reply: solution.reply,
          noCode: solution.code.trim() === "",
        }));
        // SQL rules run by this insert, and by its ON CONFLICT update (prisma/sql):
        // triggers/Solution.Solution_note_changes_{insert,update}.sql, running
        // functions/verity_note_record_changes.sql (CampaignChange).
        await tx.$executeRaw`
          INSERT INTO "Solution" (id, "recordId", model, code, reply, "batchId", outcome, passed, "ranAt")
          SELECT 'sol_' || replace(gen_random_uuid()::text, '-', ''), x."recordId", x.model, x.code, x.reply, ${batch.id},
                 CASE WHEN x."noCode" THEN ${NO_CODE} END, CASE WHEN x."noCode" THEN false END, CASE WHEN x."noCode" THEN now() END
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x("recordId" int, model text, code text, reply text, "noCode" boolean)
          ON CONFLICT ("recordId", model) DO UPDATE SET code = EXCLUDED.code, reply = EXCLUDED.reply, "batchId" = EXCLUDED."batchId",
            outcome = EXCLUDED.outcome, passed = EXCLUDED.passed, "ranAt" = EXCLUDED."ranAt",
            "demoOutcome" = NULL, "fullOutcome" = NULL, detail = NULL, "timeMs" = NULL`;
      }
      await writeAudit(tx, {
        actorId: personIdOf(actor),
        action: "dataset.solutions.import",
        targetType: "Dataset",
        targetId: dataset.id,
        after: { origin, fileName: fileName ?? null, imported: solutions.length, models },
      });
      return batch.id;
    },
    { timeout: 120_000 },
  );
  return { dataset: dataset.name, batchId, imported: solutions.length, withoutCode, toRun, models };
}

/**
 * Moves a record's imported solutions into a new batch to run again against the record as it is now
 * (a repair was accepted: the tests or the solution changed, so the old results speak of old
 * content). Their results are cleared until their runs store new ones; replies with no code stay
 * decided (nothing to run). Null when the record has no solution to run. Scope: datasets:verify.
 */
export async function openRevisionSolutionBatch({
  actor,
  recordId,
}: {
  actor: Actor | SystemActor;
  recordId: number;
}): Promise<{ batchId: string; toRun: number } | null> {
  assertCan(actor, "datasets:verify");
  return prisma().$transaction(async (tx) => {
    const record = await tx.record.findUnique({ where: { id: recordId }, select: { datasetId: true } });
    if (!record) return null;
    const solutions = await tx.solution.findMany({
      where: { recordId, OR: [{ outcome: null }, { outcome: { not: NO_CODE } }] },
      select: { id: true, model: true },
    });
    if (solutions.length === 0) return null;
    const batch = await tx.solutionBatch.create({
      data: {
        datasetId: record.datasetId,
        origin: REVISION_ORIGIN,
        models: [...new Set(solutions.map((solution) => solution.model))].sort(),
        total: solutions.length,
        createdById: personIdOf(actor),
      },
      select: { id: true },
    });
    // SQL rules run by this update (prisma/sql): triggers/Solution.Solution_note_changes_update.sql,
    // running functions/verity_note_record_changes.sql (CampaignChange).
    await tx.solution.updateMany({
      where: { id: { in: solutions.map((solution) => solution.id) } },
      data: {
        batchId: batch.id,
        outcome: null,
        demoOutcome: null,
        fullOutcome: null,
        passed: null,
        detail: null,
        timeMs: null,
        ranAt: null,
      },
    });
    return { batchId: batch.id, toRun: solutions.length };
  });
}

/** The ids of a batch's solutions still to run, page by page (flat memory). No permission check: the caller opened the batch. */
export async function* solutionIdsToQueue({
  batchId,
  pageSize,
}: {
  batchId: string;
  pageSize: number;
}): AsyncGenerator<string[]> {
  let cursor = "";
  for (;;) {
    const rows = await prisma().solution.findMany({
      where: { batchId, ranAt: null, id: { gt: cursor } },
      orderBy: { id: "asc" },
      take: pageSize,
      select: { id: true },
    });
    if (rows.length === 0) return;
    yield rows.map(({ id }) => id);
    cursor = rows[rows.length - 1].id;
  }
}

/**
 * What a worker runs for one solution: its code, language and the record's tests; null when the
 * batch stopped, the solution ran already (a job delivered twice) or was replaced by a later import.
 * Scope: datasets:verify.
 */
export async function findSolutionToRun({
  actor,
  batchId,
  solutionId,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  solutionId: string;
}) {
  assertCan(actor, "datasets:verify");
  const batch = await prisma().solutionBatch.findUnique({ where: { id: batchId }, select: { status: true } });
  if (batch?.status !== "RUNNING") return null;
  const solution = await prisma().solution.findFirst({
    where: { id: solutionId, batchId, ranAt: null },
    select: { code: true, record: { select: { id: true, language: true, demoTestFunc: true, fullTestFunc: true } } },
  });
  return solution
    ? {
        code: solution.code,
        recordId: solution.record.id,
        language: solution.record.language,
        demoTestFunc: solution.record.demoTestFunc,
        fullTestFunc: solution.record.fullTestFunc,
      }
    : null;
}

const DETAIL_CHARACTERS = 4096;

function failureDetail(verdict: Extract<Verdict, { kind: "ran" }>): string | null {
  const failing =
    verdict.demo.outcome !== "PASSED" ? verdict.demo : verdict.full.outcome !== "PASSED" ? verdict.full : null;
  if (!failing) return null;
  return escapeNul(
    [failing.compileOutput, failing.stderr, failing.stdout].filter(Boolean).join("\n").slice(0, DETAIL_CHARACTERS),
  );
}

/**
 * Stores how one solution ran and moves its batch's counters, in one transaction; a second delivery
 * (or a solution replaced meanwhile) writes nothing. Scope: datasets:verify.
 */
export async function writeSolutionRun({
  actor,
  batchId,
  solutionId,
  verdict,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  solutionId: string;
  verdict: Verdict;
}): Promise<void> {
  assertCan(actor, "datasets:verify");
  // Null when a time-out could not be told from a busy machine: the model neither solved nor failed it.
  const isPassed = verdict.kind === "ran" ? executableValidity(verdict.demo.outcome, verdict.full.outcome) : null;
  const counter =
    verdict.kind === "ran"
      ? isPassed === null
        ? "inconclusive"
        : isPassed
          ? "passed"
          : "failed"
      : verdict.kind === "unavailable"
        ? "unavailable"
        : "errored";
  await prisma().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "SolutionBatch" WHERE id = ${batchId} FOR UPDATE`;
    const data =
      verdict.kind === "ran"
        ? {
            outcome: summarizeOutcome(verdict.demo.outcome, verdict.full.outcome),
            demoOutcome: verdict.demo.outcome,
            fullOutcome: verdict.full.outcome,
            passed: isPassed,
            detail: failureDetail(verdict),
            timeMs: Math.round(verdict.demo.timeMs + verdict.full.timeMs),
          }
        : {
            outcome: verdict.kind === "unavailable" ? UNAVAILABLE : "INTERNAL_ERROR",
            passed: null,
            detail: verdict.kind === "unavailable" ? null : verdict.reason,
          };
    // SQL rules run by this update (prisma/sql): triggers/Solution.Solution_note_changes_update.sql,
    // running functions/verity_note_record_changes.sql (CampaignChange).
    const updated = await tx.solution.updateMany({
      where: { id: solutionId, batchId, ranAt: null },
      data: { ...data, ranAt: new Date() },
    });
    if (updated.count === 0) return;
    const batch = await tx.solutionBatch.update({
      where: { id: batchId },
      data: { done: { increment: 1 }, [counter]: { increment: 1 } },
      select: { done: true, total: true },
    });
    if (verdict.kind === "sandbox-error")
      await tx.solutionBatch.updateMany({
        where: { id: batchId, status: "RUNNING" },
        data: {
          status: "FAILED",
          finishedAt: new Date(),
          stopReason: `Stopped: the sandbox failed before a program started (${verdict.reason}). Fix the sandbox (npx verity sandbox doctor) and import again.`,
        },
      });
    else if (batch.done >= batch.total)
      await tx.solutionBatch.updateMany({
        where: { id: batchId, status: "RUNNING" },
        data: { status: "SUCCEEDED", finishedAt: new Date() },
      });
  });
}

const batchSelect = {
  id: true,
  status: true,
  models: true,
  total: true,
  done: true,
  passed: true,
  failed: true,
  unavailable: true,
  inconclusive: true,
  errored: true,
  stopReason: true,
  createdAt: true,
  dataset: { select: { name: true } },
} as const;

/** A solution batch's progress. Scope: records:read (annotators: datasets they see). */
export async function getSolutionBatchProgress({
  actor,
  batchId,
}: {
  actor: Actor | SystemActor;
  batchId: string;
}): Promise<SolutionBatchProgress> {
  assertCan(actor, "records:read");
  const batch = await prisma().solutionBatch.findFirst({
    where: { id: batchId, ...("kind" in actor ? {} : { dataset: visibleDatasetWhere(actor) }) },
    select: batchSelect,
  });
  if (!batch) throw new AppError("NOT_FOUND", "No such solution run.");
  const { id, dataset, ...rest } = batch;
  return { batchId: id, dataset: dataset.name, ...rest };
}

/** The newest solution batch of a dataset, or null. Scope: records:read. */
export async function latestSolutionBatch({
  actor,
  datasetName,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
}): Promise<SolutionBatchProgress | null> {
  assertCan(actor, "records:read");
  const dataset = await findDataset(actor, datasetName);
  const batch = await prisma().solutionBatch.findFirst({
    where: { datasetId: dataset.id },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return batch ? getSolutionBatchProgress({ actor, batchId: batch.id }) : null;
}

/** Per model and language: solutions that ran (n), passed both tests, could not run here, and still waiting. */
export type SolverCounts = {
  model: string;
  language: string;
  attempted: number;
  solved: number;
  unavailable: number;
  pending: number;
};

/**
 * The counts behind pass@1 per model and language for a dataset, in SQL over its solutions.
 * Scope: records:read (annotators: datasets they see).
 */
export async function solverCounts({
  actor,
  datasetName,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
}): Promise<SolverCounts[]> {
  assertCan(actor, "records:read");
  const dataset = await findDataset(actor, datasetName);
  return prisma().$queryRaw<SolverCounts[]>`
    SELECT s.model, r.language,
           count(*) FILTER (WHERE s.passed IS NOT NULL)::int AS attempted,
           count(*) FILTER (WHERE s.passed)::int AS solved,
           count(*) FILTER (WHERE s.outcome = ${UNAVAILABLE})::int AS unavailable,
           count(*) FILTER (WHERE s."ranAt" IS NULL)::int AS pending
    FROM "Solution" s JOIN "Record" r ON r.id = s."recordId"
    WHERE r."datasetId" = ${dataset.id}
    GROUP BY s.model, r.language
    ORDER BY s.model, r.language`;
}

export type RecordSolvers = {
  recordId: number;
  line: number;
  language: string;
  question: string;
  /** Models whose solution passed both tests (k). */
  solvedBy: string[];
  /** Models whose solution ran here (n). */
  triedBy: string[];
};

/**
 * A page of a dataset's records that have solutions, with which models solve each (k of n), by
 * record id (keyset). `unsolvedOnly`: records that some model tried and none solved. Records whose
 * evidence a campaign hides from the actor are left out (visibility.ts). Scope: records:read.
 */
export async function recordSolversPage({
  actor,
  datasetName,
  unsolvedOnly,
  cursor,
  limit,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  unsolvedOnly: boolean;
  cursor: number | null;
  limit: number;
}): Promise<{ rows: RecordSolvers[]; nextCursor: number | null }> {
  assertCan(actor, "records:read");
  const dataset = await findDataset(actor, datasetName);
  const rows = await prisma().$queryRaw<RecordSolvers[]>`
    SELECT r.id AS "recordId", r.line, r.language, left(r.question, 300) AS question,
           coalesce(array_agg(s.model ORDER BY s.model) FILTER (WHERE s.passed), '{}') AS "solvedBy",
           coalesce(array_agg(s.model ORDER BY s.model) FILTER (WHERE s.passed IS NOT NULL), '{}') AS "triedBy"
    FROM "Record" r JOIN "Solution" s ON s."recordId" = r.id
    WHERE r."datasetId" = ${dataset.id} AND r.id > ${cursor ?? 0}
    GROUP BY r.id
    HAVING ${!unsolvedOnly} OR (count(*) FILTER (WHERE s.passed IS NOT NULL) > 0 AND NOT coalesce(bool_or(s.passed), false))
    ORDER BY r.id
    LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  // Solver results are evidence: a campaign hiding it before the first label keeps those rows out
  // (a page may then be shorter than the limit; the cursor still moves past them).
  const hidden = await evidenceHiddenRecordIds({ actor, recordIds: page.map((row) => row.recordId) });
  return {
    rows: page.filter((row) => !hidden.has(row.recordId)),
    nextCursor: rows.length > limit ? page[page.length - 1].recordId : null,
  };
}

/**
 * Solver evidence of the given records — the models whose solution passed both tests (k) of those
 * whose solution ran (n) — in one query; records with no solution that ran are absent.
 * Scope: records:read; the caller has already scoped the records to the actor.
 */
export async function solverEvidenceOf({
  actor,
  recordIds,
}: {
  actor: Actor | SystemActor;
  recordIds: number[];
}): Promise<Map<number, SolverEvidence>> {
  assertCan(actor, "records:read");
  const evidence = new Map<number, SolverEvidence>();
  if (recordIds.length === 0) return evidence;
  const rows = await prisma().solution.findMany({
    where: { recordId: { in: recordIds }, passed: { not: null } },
    select: { recordId: true, model: true, passed: true },
    orderBy: [{ recordId: "asc" }, { model: "asc" }],
  });
  for (const row of rows) {
    const entry = evidence.get(row.recordId) ?? { solved: 0, total: 0, byModel: [] };
    entry.total += 1;
    if (row.passed) entry.solved += 1;
    entry.byModel.push({ model: row.model, solved: row.passed === true });
    evidence.set(row.recordId, entry);
  }
  return evidence;
}
