import "server-only";

import { type Language, LANGUAGE_LABELS, parseLanguage } from "@/lib/records/languages";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { readConfig } from "@/lib/server/config";
import { findRecordToRun, pruneScratchRuns, storeRun, type StoredRun } from "@/lib/server/db/runs";
import { AppError } from "@/lib/server/errors";
import { admitRun, runInSandbox, SandboxError, type SandboxResult } from "@/lib/server/sandbox";

// Interactive runs as a feature: the sandbox around the stored runs of lib/server/db/runs.ts.

export type RunKindInput = "demo" | "full" | "both" | "scratch";

/** What a user is told when their record's language cannot run (operators find the detail in the log). */
export function cannotRunSentence(language: Language): string {
  return `${LANGUAGE_LABELS[language] ?? language} can't run right now; your admin has been told.`;
}

// By shape as well as by class: a server action's bundle may hold its own copy of the sandbox module.
function isSandboxError(error: unknown): error is SandboxError {
  if (error instanceof SandboxError) return true;
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === "string" && code.startsWith("SANDBOX_");
}

/**
 * Turns a sandbox refusal into what the user is told. A language that cannot run gets a plain
 * sentence; the operator's detail (what to install, which setting) goes to the server log.
 */
function userFacingError(error: unknown, language: Language): unknown {
  if (!isSandboxError(error)) return error;
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

/**
 * Runs a record in the sandbox for the actor: the canonical solution against the demo test, the full
 * test or both, or an edited scratch copy (the record itself never changes). Every result is stored
 * with who ran it. A user has at most a few runs going at once and the queue is bounded (both
 * RATE_LIMITED); aborting `signal` (the client went away) kills the run and stores nothing.
 * Scoped to records the actor sees. Scope: sandbox:run.
 */
export async function runRecord({ actor, recordId, kind, solution, test, signal }: { actor: Actor; recordId: number; kind: RunKindInput; solution?: string; test?: string; signal?: AbortSignal }): Promise<StoredRun[]> {
  assertCan(actor, "sandbox:run");
  const record = await findRecordToRun({ actor, recordId });
  const language = parseLanguage(record.language);
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
