import "server-only";

import type { RunKind } from "@/lib/generated/prisma/enums";
import { LANGUAGE_LABELS, type Language } from "@/lib/records/languages";
import { UNAVAILABLE } from "@/lib/records/verification";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { readConfig } from "@/lib/server/config";
import { AppError } from "@/lib/server/errors";
import { createRateLimiter } from "@/lib/server/rate-limit";
import { admitRun, runInSandbox, SandboxError, type SandboxResult } from "@/lib/server/sandbox";
import { keepHeadAndTail } from "@/lib/server/sandbox/output";

import { prisma } from "./client";
import { visibleRecordWhere } from "./visibility";

export type RunKindInput = "demo" | "full" | "both" | "scratch";

// Runs cost real CPU: a burst of 20, then 30 a minute per user, whether asked from a page or the API.
const runLimiter = createRateLimiter({ capacity: 20, perMinute: 30 });

export type StoredRun = SandboxResult & { id: string; kind: RunKind; createdAt: Date };

// What is stored of each output stream: its first and last 32 KiB. Annotators read the start and
// the end; a flood's middle is not worth megabytes per run.
const STORED_HEAD_BYTES = 32 * 1024;
const STORED_TAIL_BYTES = 32 * 1024;
const DAY_MS = 24 * 60 * 60_000;

/** What a user is told when their record's language cannot run (operators find the detail in the log). */
export function cannotRunSentence(language: Language): string {
  return `${LANGUAGE_LABELS[language] ?? language} can't run right now; your admin has been told.`;
}

/**
 * Turns a sandbox refusal into what the user is told. A language that cannot run gets a plain
 * sentence; the operator's detail (what to install, which setting) goes to the server log.
 */
function userFacingError(error: unknown, language: Language): unknown {
  if (!(error instanceof SandboxError)) return error;
  switch (error.code) {
    case "SANDBOX_BUSY":
      return new AppError("RATE_LIMITED", error.message);
    case "SANDBOX_INVALID_REQUEST":
      return new AppError("INVALID_INPUT", error.message);
    case "SANDBOX_CANCELLED":
      return new AppError("SANDBOX_FAILED", "The run was cancelled.");
    default:
      console.error(`sandbox: a ${language} run could not happen: ${error.message}`);
      return new AppError("SANDBOX_FAILED", cannotRunSentence(language));
  }
}

/** Runs a program in the sandbox; a run that could not happen at all becomes an AppError for the user. */
async function execute(request: { language: Language; solution: string; test: string }, signal?: AbortSignal): Promise<SandboxResult> {
  try {
    return await runInSandbox(request, { signal });
  } catch (error) {
    throw userFacingError(error, request.language);
  }
}

/** PostgreSQL text cannot hold NUL; it is stored as the visible symbol ␀ (U+2400) instead. */
export function escapeNul(text: string): string {
  return text.replaceAll("\0", "\u2400");
}

function storedOutput(text: string): { text: string; isCut: boolean } {
  return keepHeadAndTail(escapeNul(text), STORED_HEAD_BYTES, STORED_TAIL_BYTES);
}

/**
 * The columns of a RunResult row for a normalised sandbox result: NULs escaped, each output stream
 * cut to its head and tail (flagged truncated when cut).
 */
export function runResultColumns(result: SandboxResult) {
  const stdout = storedOutput(result.stdout);
  const stderr = storedOutput(result.stderr);
  return {
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
  };
}

/** Stores a run result (and who ran it); returns it as stored, with its id. */
export async function storeRun({ recordId, userId, kind, result, solution, test }: { recordId: number; userId: string | null; kind: RunKind; result: SandboxResult; solution?: string; test?: string }): Promise<StoredRun> {
  const columns = runResultColumns(result);
  const row = await prisma().runResult.create({
    data: { recordId, userId, kind, ...columns, solution: solution === undefined ? null : escapeNul(solution), test: test === undefined ? null : escapeNul(test) },
    select: { id: true, createdAt: true },
  });
  return { ...result, ...columns, id: row.id, kind, createdAt: row.createdAt };
}

/**
 * Deletes a user's scratch runs beyond their newest `keep`, and everyone's older than `maxAgeDays`.
 * Runs cited as evidence by a label are never deleted. Called after each scratch run.
 */
export async function pruneScratchRuns({ userId, keep, maxAgeDays }: { userId: string; keep: number; maxAgeDays: number }): Promise<number> {
  const prunable = { kind: "SCRATCH", annotationId: null } as const;
  const beyond = await prisma().runResult.findMany({ where: { ...prunable, userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: keep, select: { id: true } });
  const { count } = await prisma().runResult.deleteMany({
    where: { ...prunable, OR: [{ id: { in: beyond.map((run) => run.id) } }, { createdAt: { lt: new Date(Date.now() - maxAgeDays * DAY_MS) } }] },
  });
  return count;
}

/**
 * Runs a record in the sandbox for the actor: the canonical solution against the demo test, the full
 * test or both, or an edited scratch copy (the record itself never changes). Every result is stored
 * with who ran it. A user has a rate of runs, at most a few going at once, and the queue is bounded
 * (all RATE_LIMITED); aborting `signal` (the client went away) kills the run and stores nothing.
 * Scoped to records the actor sees. Scope: sandbox:run.
 */
export async function runRecord({ actor, recordId, kind, solution, test, signal }: { actor: Actor; recordId: number; kind: RunKindInput; solution?: string; test?: string; signal?: AbortSignal }): Promise<StoredRun[]> {
  assertCan(actor, "sandbox:run");
  runLimiter.take(actor.id);
  const record = await prisma().record.findFirst({ where: { id: recordId, ...visibleRecordWhere(actor) }, select: { id: true, language: true, canonicalSolution: true, demoTestFunc: true, fullTestFunc: true } });
  if (!record) throw new AppError("NOT_FOUND", "No such record.");
  const language = record.language as Language;
  if (kind === "scratch" && solution === undefined && test === undefined) throw new AppError("INVALID_INPUT", "A scratch run needs a solution or a test.", { solution: ["Give a solution, a test, or both."] });
  let release: () => void;
  try {
    release = admitRun(actor.id);
  } catch (error) {
    throw userFacingError(error, language);
  }
  try {
    if (kind === "scratch") {
      const code = { solution: solution ?? record.canonicalSolution, test: test ?? record.fullTestFunc };
      const result = await execute({ language, ...code }, signal);
      const stored = await storeRun({ recordId, userId: actor.id, kind: "SCRATCH", result, ...code });
      await pruneScratchRuns({ userId: actor.id, ...readConfig().scratchRetention });
      return [stored];
    }
    const kinds: ("DEMO" | "FULL")[] = kind === "both" ? ["DEMO", "FULL"] : kind === "demo" ? ["DEMO"] : ["FULL"];
    const runs: StoredRun[] = [];
    for (const runKind of kinds) {
      const result = await execute({ language, solution: record.canonicalSolution, test: runKind === "DEMO" ? record.demoTestFunc : record.fullTestFunc }, signal);
      runs.push(await storeRun({ recordId, userId: actor.id, kind: runKind, result }));
    }
    return runs;
  } finally {
    release();
  }
}

/** The latest runs of a record the actor sees, newest first (for the record page). Scope: records:read. */
export async function listRecordRuns({ actor, recordId, limit = 10 }: { actor: Actor; recordId: number; limit?: number }) {
  assertCan(actor, "records:read");
  return prisma().runResult.findMany({
    where: { recordId, record: visibleRecordWhere(actor) },
    orderBy: { createdAt: "desc" },
    take: limit,
    select: { id: true, kind: true, backend: true, outcome: true, exitCode: true, timeMs: true, createdAt: true, batchId: true, user: { select: { email: true } } },
  });
}

/** What a verification run keeps for inspection (record page, batch page, export). */
export type VerificationRun = {
  id: string;
  recordId: number;
  kind: RunKind;
  batchId: string;
  backend: string;
  outcome: string;
  exitCode: number | null;
  signal: string | null;
  timeMs: number;
  compileMs: number | null;
  runMs: number | null;
  toolchain: string | null;
  limit: string | null;
  stdout: string;
  stderr: string;
  compileOutput: string | null;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  program: string;
  createdAt: Date;
};

/**
 * The runs of each record's newest verification batch (demo and full, or the one marker run of a
 * record that could not run), keyed by record id. No permission check: callers have checked theirs.
 */
export async function latestVerificationRuns(recordIds: readonly number[]): Promise<Map<number, VerificationRun[]>> {
  const byRecord = new Map<number, VerificationRun[]>();
  if (recordIds.length === 0) return byRecord;
  const rows = await prisma().$queryRaw<VerificationRun[]>`
    SELECT r.id, r."recordId", r.kind, r."batchId", r.backend, r.outcome, r."exitCode", r.signal, r."timeMs", r."compileMs", r."runMs",
           r.toolchain, r."limit", r.stdout, r.stderr, r."compileOutput", r."stdoutTruncated", r."stderrTruncated", r.program, r."createdAt"
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

/** A record's newest verification runs, for its page. Scope: records:read. */
export async function getRecordVerification({ actor, recordId }: { actor: Actor; recordId: number }): Promise<VerificationRun[]> {
  assertCan(actor, "records:read");
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
    stdout: exportText(run.stdout),
    stderr: exportText(run.stderr),
    compile_output: exportText(run.compileOutput),
  };
}

export type BatchRunRow = Pick<VerificationRun, "id" | "recordId" | "kind" | "backend" | "outcome" | "exitCode" | "signal" | "compileMs" | "runMs" | "toolchain" | "limit"> & { language: string; line: number };

/** A verification batch's runs, record by record (no outputs: the record page has them). Scope: records:read. */
export async function listBatchRuns({ actor, batchId, limit = 1000 }: { actor: Actor; batchId: string; limit?: number }): Promise<BatchRunRow[]> {
  assertCan(actor, "records:read");
  const rows = await prisma().runResult.findMany({
    where: { batchId },
    orderBy: [{ recordId: "asc" }, { kind: "asc" }],
    take: limit,
    select: { id: true, recordId: true, kind: true, backend: true, outcome: true, exitCode: true, signal: true, compileMs: true, runMs: true, toolchain: true, limit: true, record: { select: { language: true, line: true, verificationOutcome: true } } },
  });
  // A record that could not run leaves one marker run; its record says whether it was unavailable.
  return rows.map(({ record, ...run }) => ({ ...run, language: record.language, line: record.line, outcome: run.backend === "none" && record.verificationOutcome === UNAVAILABLE ? UNAVAILABLE : run.outcome }));
}
