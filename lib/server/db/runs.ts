import "server-only";

import type { RunKind } from "@/lib/generated/prisma/enums";
import type { Language } from "@/lib/records/languages";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { runInSandbox, SandboxError, type SandboxResult } from "@/lib/server/sandbox";

import { prisma } from "./client";
import { visibleRecordWhere } from "./visibility";

export type RunKindInput = "demo" | "full" | "both" | "scratch";

export type StoredRun = SandboxResult & { id: string; kind: RunKind; createdAt: Date };

/** Runs a program in the sandbox, turning "could not run at all" into SANDBOX_FAILED with the reason. */
async function execute(request: { language: Language; solution: string; test: string }): Promise<SandboxResult> {
  try {
    return await runInSandbox(request);
  } catch (error) {
    if (error instanceof SandboxError) throw new AppError("SANDBOX_FAILED", error.message);
    throw error;
  }
}

/** The columns of a RunResult row that hold a normalised sandbox result. */
export function runResultColumns(result: SandboxResult) {
  return {
    backend: result.backend,
    outcome: result.outcome,
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    compileOutput: result.compileOutput,
    timeMs: Math.round(result.timeMs),
    memoryKb: result.memoryKb === null ? null : Math.round(result.memoryKb),
    limit: result.limit,
    stdoutTruncated: result.stdoutTruncated,
    stderrTruncated: result.stderrTruncated,
    program: result.program,
  };
}

/** Stores a run result (and who ran it); returns it with its id. */
export async function storeRun({ recordId, userId, kind, result, solution, test }: { recordId: number; userId: string | null; kind: RunKind; result: SandboxResult; solution?: string; test?: string }): Promise<StoredRun> {
  const row = await prisma().runResult.create({
    data: { recordId, userId, kind, ...runResultColumns(result), solution: solution ?? null, test: test ?? null },
    select: { id: true, createdAt: true },
  });
  return { ...result, id: row.id, kind, createdAt: row.createdAt };
}

/**
 * Runs a record in the sandbox for the actor: the canonical solution against the demo test, the full
 * test or both, or an edited scratch copy (the record itself never changes). Every result is stored
 * with who ran it. Scoped to records the actor sees. Scope: sandbox:run.
 */
export async function runRecord({ actor, recordId, kind, solution, test }: { actor: Actor; recordId: number; kind: RunKindInput; solution?: string; test?: string }): Promise<StoredRun[]> {
  assertCan(actor, "sandbox:run");
  const record = await prisma().record.findFirst({ where: { id: recordId, ...visibleRecordWhere(actor) }, select: { id: true, language: true, canonicalSolution: true, demoTestFunc: true, fullTestFunc: true } });
  if (!record) throw new AppError("NOT_FOUND", "No such record.");
  const language = record.language as Language;
  if (kind === "scratch") {
    if (solution === undefined && test === undefined) throw new AppError("INVALID_INPUT", "A scratch run needs a solution or a test.", { solution: ["Give a solution, a test, or both."] });
    const code = { solution: solution ?? record.canonicalSolution, test: test ?? record.fullTestFunc };
    const result = await execute({ language, ...code });
    return [await storeRun({ recordId, userId: actor.id, kind: "SCRATCH", result, ...code })];
  }
  const kinds: ("DEMO" | "FULL")[] = kind === "both" ? ["DEMO", "FULL"] : kind === "demo" ? ["DEMO"] : ["FULL"];
  const runs: StoredRun[] = [];
  for (const runKind of kinds) {
    const result = await execute({ language, solution: record.canonicalSolution, test: runKind === "DEMO" ? record.demoTestFunc : record.fullTestFunc });
    runs.push(await storeRun({ recordId, userId: actor.id, kind: runKind, result }));
  }
  return runs;
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
