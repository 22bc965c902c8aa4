import "server-only";

import type { RunKind } from "@/lib/generated/prisma/enums";
import { environmentFailure, type EnvironmentFailureKind } from "@/lib/runs/environment-failure";
import type { VerificationRun } from "@/lib/runs/types";
import { ENVIRONMENT_FAILURE, UNAVAILABLE } from "@/lib/records/verification";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { keepHeadAndTail } from "@/lib/server/sandbox/output";
import type { SandboxResult } from "@/lib/server/sandbox/types";

import { prisma } from "@/lib/server/db/client";
import { executionHiddenRecordIds, visibleRecordWhere } from "@/lib/server/auth/visibility";

export type StoredRun = SandboxResult & { id: string; kind: RunKind; createdAt: Date };

// What is stored of each output stream: its first and last 32 KiB. Annotators read the start and
// the end; a flood's middle is not worth megabytes per run.
const STORED_HEAD_BYTES = 32 * 1024;
const STORED_TAIL_BYTES = 32 * 1024;
const DAY_MS = 24 * 60 * 60_000;

/** PostgreSQL text cannot hold NUL; it is stored as the visible symbol ␀ (U+2400) instead. */
export function escapeNul(text: string): string {
  return text.replaceAll("\0", "\u2400");
}

function storedOutput(text: string): { text: string; isCut: boolean } {
  return keepHeadAndTail(escapeNul(text), STORED_HEAD_BYTES, STORED_TAIL_BYTES);
}

/**
 * The columns of a RunResult row for a normalised sandbox result: NULs escaped, each output stream
 * cut to its head and tail (flagged truncated when cut), and the dependency it failed for want of.
 */
export function runResultColumns(result: SandboxResult) {
  const stdout = storedOutput(result.stdout);
  const stderr = storedOutput(result.stderr);
  const environment = environmentFailure(result);
  return {
    environmentKind: environment?.kind ?? null,
    environmentMissing: environment?.missing ?? null,
    backend: result.backend,
    outcome: result.outcome,
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: stdout.text,
    stderr: stderr.text,
    compileOutput: result.compileOutput === null ? null : storedOutput(result.compileOutput).text,
    timeMs: Math.round(result.timeMs),
    compileMs: result.compileMs == null ? null : Math.round(result.compileMs),
    runMs: result.runMs == null ? null : Math.round(result.runMs),
    toolchain: result.toolchain ? escapeNul(result.toolchain).slice(0, 200) : null,
    memoryKb: result.memoryKb === null ? null : Math.round(result.memoryKb),
    limit: result.limit,
    stdoutTruncated: result.stdoutTruncated || stdout.isCut,
    stderrTruncated: result.stderrTruncated || stderr.isCut,
    program: escapeNul(result.program),
    waitMs: result.waitMs == null ? null : Math.round(result.waitMs),
    loadAverage: result.loadAverage ?? null,
    verdictNote: result.verdictNote ?? null,
    environmentVersion: result.environmentVersion ?? null,
  };
}

/** Stores a run result (and who ran it); returns it as stored, with its id. */
export async function storeRun({
  recordId,
  userId,
  kind,
  result,
  solution,
  test,
}: {
  recordId: number;
  userId: string | null;
  kind: RunKind;
  result: SandboxResult;
  solution?: string;
  test?: string;
}): Promise<StoredRun> {
  const columns = runResultColumns(result);
  const row = await prisma().runResult.create({
    data: {
      recordId,
      userId,
      kind,
      ...columns,
      solution: solution === undefined ? null : escapeNul(solution),
      test: test === undefined ? null : escapeNul(test),
    },
    select: { id: true, createdAt: true },
  });
  return { ...result, ...columns, id: row.id, kind, createdAt: row.createdAt };
}

/**
 * Deletes a user's scratch runs beyond their newest `keep`, and everyone's older than `maxAgeDays`.
 * Runs cited as evidence by a label are never deleted. Called after each scratch run.
 */
export async function pruneScratchRuns({
  userId,
  keep,
  maxAgeDays,
}: {
  userId: string;
  keep: number;
  maxAgeDays: number;
}): Promise<number> {
  const prunable = { kind: "SCRATCH", annotationId: null } as const;
  const beyond = await prisma().runResult.findMany({
    where: { ...prunable, userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: keep,
    select: { id: true },
  });
  const { count } = await prisma().runResult.deleteMany({
    where: {
      ...prunable,
      OR: [
        { id: { in: beyond.map((run) => run.id) } },
        { createdAt: { lt: new Date(Date.now() - maxAgeDays * DAY_MS) } },
      ],
    },
  });
  return count;
}

/** The code of a record the actor sees, to run it. Scope: sandbox:run. */
export async function findRecordToRun({ actor, recordId }: { actor: Actor; recordId: number }) {
  assertCan(actor, "sandbox:run");
  const record = await prisma().record.findFirst({
    where: { id: recordId, ...visibleRecordWhere(actor) },
    select: { id: true, language: true, canonicalSolution: true, demoTestFunc: true, fullTestFunc: true },
  });
  if (!record) throw new AppError("NOT_FOUND", "No such record.");
  return record;
}

/**
 * The runs of each record's newest verification batch (demo and full, or the one marker run of a
 * record that could not run), keyed by record id. No permission check: callers have checked theirs.
 */
export async function latestVerificationRuns(recordIds: readonly number[]): Promise<Map<number, VerificationRun[]>> {
  const byRecord = new Map<number, VerificationRun[]>();
  if (recordIds.length === 0) return byRecord;
  const rows = await prisma().$queryRaw<VerificationRun[]>`
    SELECT r.id, r."recordId", r.kind, r."batchId", r.backend, r.outcome, r."exitCode", r.signal, r."timeMs", r."compileMs", r."runMs",
           r.toolchain, r."limit", r.stdout, r.stderr, r."compileOutput", r."stdoutTruncated", r."stderrTruncated", r.program,
           r."waitMs", r."loadAverage", r."verdictNote", r."environmentKind", r."environmentMissing", r."environmentVersion", r."createdAt"
    FROM "RunResult" r
    JOIN (
      SELECT DISTINCT ON ("recordId") "recordId", "batchId"
      FROM "RunResult"
      WHERE "recordId" = ANY(${[...recordIds]}::int[]) AND "batchId" IS NOT NULL
      ORDER BY "recordId", "createdAt" DESC
    ) latest ON latest."recordId" = r."recordId" AND latest."batchId" = r."batchId"
    ORDER BY r."recordId", r.kind`;
  for (const row of rows) byRecord.set(row.recordId, [...(byRecord.get(row.recordId) ?? []), row]);
  return byRecord;
}

/**
 * A record's newest verification runs, for its page; none while a campaign showing "nothing" hides
 * the record's execution from the actor (visibility.ts). Scope: records:read.
 */
export async function getRecordVerification({
  actor,
  recordId,
}: {
  actor: Actor;
  recordId: number;
}): Promise<VerificationRun[]> {
  assertCan(actor, "records:read");
  if ((await executionHiddenRecordIds({ actor, recordIds: [recordId] })).has(recordId)) return [];
  return (await latestVerificationRuns([recordId])).get(recordId) ?? [];
}

// The export carries each stream's start and end only: a verified file stays readable.
const EXPORT_HEAD_BYTES = 2 * 1024;
const EXPORT_TAIL_BYTES = 2 * 1024;

function exportText(text: string | null): string | null {
  return text === null ? null : keepHeadAndTail(text, EXPORT_HEAD_BYTES, EXPORT_TAIL_BYTES).text;
}

/** One verification run as the verified export's `verification.runs` carries it (snake_case, capped). */
export function exportedRun(run: VerificationRun) {
  return {
    test: run.kind === "DEMO" ? "demo" : "full",
    outcome: run.outcome,
    exit_code: run.exitCode,
    signal: run.signal,
    compile_ms: run.compileMs,
    run_ms: run.runMs,
    time_ms: run.timeMs,
    backend: run.backend,
    toolchain: run.toolchain,
    limit: run.limit,
    wait_ms: run.waitMs,
    load_average: run.loadAverage,
    verdict_note: run.verdictNote,
    stdout: exportText(run.stdout),
    stderr: exportText(run.stderr),
    compile_output: exportText(run.compileOutput),
    // The outcome stays the reference sandbox's name; this says when it was the environment's doing.
    environment_failure: run.environmentKind ? { kind: run.environmentKind, missing: run.environmentMissing } : null,
  };
}

export type BatchRunRow = Pick<
  VerificationRun,
  | "id"
  | "recordId"
  | "kind"
  | "backend"
  | "outcome"
  | "exitCode"
  | "signal"
  | "compileMs"
  | "runMs"
  | "toolchain"
  | "limit"
  | "waitMs"
  | "loadAverage"
  | "verdictNote"
  | "environmentKind"
  | "environmentMissing"
> & { language: string; line: number };

/**
 * A verification batch's runs, record by record (no outputs: the record page has them), leaving out
 * records whose execution a campaign showing "nothing" hides from the actor (visibility.ts). Scope: records:read.
 */
export async function listBatchRuns({
  actor,
  batchId,
  limit = 1000,
}: {
  actor: Actor;
  batchId: string;
  limit?: number;
}): Promise<BatchRunRow[]> {
  assertCan(actor, "records:read");
  const rows = await prisma().runResult.findMany({
    where: { batchId },
    orderBy: [{ recordId: "asc" }, { kind: "asc" }],
    take: limit,
    select: {
      id: true,
      recordId: true,
      kind: true,
      backend: true,
      outcome: true,
      exitCode: true,
      signal: true,
      compileMs: true,
      runMs: true,
      toolchain: true,
      limit: true,
      waitMs: true,
      loadAverage: true,
      verdictNote: true,
      environmentKind: true,
      environmentMissing: true,
      record: { select: { language: true, line: true, verificationOutcome: true } },
    },
  });
  const hidden = await executionHiddenRecordIds({ actor, recordIds: [...new Set(rows.map((row) => row.recordId))] });
  // A record that could not run leaves one marker run; its record says whether it was unavailable.
  return rows
    .filter((row) => !hidden.has(row.recordId))
    .map(({ record, ...run }) => ({
      ...run,
      language: record.language,
      line: record.line,
      outcome: run.backend === "none" && record.verificationOutcome === UNAVAILABLE ? UNAVAILABLE : run.outcome,
    }));
}

/** One missing dependency of a batch: what, for which language, how many records and a few of their lines. */
export type EnvironmentFailureGroup = {
  kind: EnvironmentFailureKind;
  missing: string;
  language: string;
  records: number;
  /** The first few records' lines, for links. */
  examples: { recordId: number; line: number }[];
};

const ENVIRONMENT_EXAMPLES = 5;

/**
 * A batch's records whose verification failed for want of a dependency, grouped by what is missing
 * (most records first), leaving out records whose execution is hidden from the actor. Only the
 * run that decided each record counts (the record's outcome says so). Scope: records:read.
 */
export async function listBatchEnvironmentFailures({
  actor,
  batchId,
  limit = 10_000,
}: {
  actor: Actor;
  batchId: string;
  limit?: number;
}): Promise<EnvironmentFailureGroup[]> {
  assertCan(actor, "records:read");
  const rows = await prisma().runResult.findMany({
    where: { batchId, environmentKind: { not: null }, record: { verificationOutcome: ENVIRONMENT_FAILURE } },
    orderBy: [{ recordId: "asc" }, { kind: "asc" }],
    take: limit,
    select: {
      recordId: true,
      environmentKind: true,
      environmentMissing: true,
      record: { select: { language: true, line: true } },
    },
  });
  const hidden = await executionHiddenRecordIds({ actor, recordIds: [...new Set(rows.map((row) => row.recordId))] });
  const groups = new Map<string, EnvironmentFailureGroup>();
  const seen = new Set<number>();
  for (const row of rows) {
    // A record's demo and full test may both name it: the record counts once, by its first run.
    if (hidden.has(row.recordId) || seen.has(row.recordId)) continue;
    seen.add(row.recordId);
    const kind = row.environmentKind as EnvironmentFailureKind;
    const missing = row.environmentMissing ?? "";
    const key = JSON.stringify([kind, missing, row.record.language]);
    const group = groups.get(key) ?? { kind, missing, language: row.record.language, records: 0, examples: [] };
    group.records += 1;
    if (group.examples.length < ENVIRONMENT_EXAMPLES)
      group.examples.push({ recordId: row.recordId, line: row.record.line });
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.records - a.records || a.missing.localeCompare(b.missing));
}
