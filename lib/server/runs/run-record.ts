import "server-only";

import { type Language, languageName, parseLanguage } from "@/lib/records/languages";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { config } from "@/lib/server/config";
import { admitRun } from "@/lib/server/runs/run-leases";
import { findRecordToRun, pruneScratchRuns, storeRun, type StoredRun } from "@/lib/server/runs/runs";
import { languageAvailability } from "@/lib/server/sandbox/availability";
import { forgetUnavailableLanguage } from "@/lib/server/sandbox/probe-store";
import { AppError } from "@/lib/server/errors";
import { createRateLimiter } from "@/lib/server/rate-limits/rate-limit";
import { getSandboxRouter, runInSandbox, SandboxError, type SandboxResult } from "@/lib/server/sandbox";
import { runSteadily } from "@/lib/server/sandbox/steady";
import { runSettingsOfRecord } from "@/lib/server/environments/run-settings";

// Interactive runs as a feature: the sandbox around the stored runs of lib/server/runs/runs.ts.

export type RunKindInput = "demo" | "full" | "both" | "scratch";

// Runs cost real CPU: a burst of 20, then 30 a minute per user, counted across every app instance
// and whichever way the run is asked for (REST route or server action).
const runLimiter = createRateLimiter({ name: "runs:user", capacity: 20, perMinute: 30 });

/** What a user is told when their record's language cannot run (operators find the detail in the log). */
function cannotRunSentence(language: Language): string {
  return `${languageName(language)} can't run right now; your admin has been told.`;
}

/** The sentence a record's run panel shows while its language cannot run here; undefined while it can. */
export async function sandboxUnavailableNote(language: string): Promise<string | undefined> {
  const known = parseLanguage(language);
  // Annotators get a plain sentence; the operator's detail stays in the server log and on the sandbox doctor.
  return (await languageAvailability())[known]?.available === false ? cannotRunSentence(known) : undefined;
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
async function execute(
  request: { language: Language; solution: string; test: string; recordId: number },
  signal?: AbortSignal,
): Promise<SandboxResult> {
  let result: SandboxResult;
  try {
    const { recordId, ...code } = request;
    // As every other run of the record: its dataset's harness profile and environment; a time-out is
    // run again alone, and may be INCONCLUSIVE.
    result = await runSteadily({ ...code, ...(await runSettingsOfRecord(recordId)) }, runInSandbox, { signal });
  } catch (error) {
    throw userFacingError(error, request.language);
  }
  // It ran after all: a shared "cannot run" answer is stale.
  await forgetUnavailableLanguage(request.language);
  return result;
}

/**
 * Takes one place in the actor's run budget: a start from the per-minute allowance, then a lease
 * among their runs at once (all app instances together) and in this instance's queue (RATE_LIMITED
 * when refused). Returns the release, which never throws (a lease left behind expires by itself).
 * Interactive runs and a repair's evidence runs both come through here: both run code, so both
 * need sandbox:run (every role that may propose a repair has it). Scope: sandbox:run.
 */
export async function admitToRunBudget(actor: Actor): Promise<() => Promise<void>> {
  assertCan(actor, "sandbox:run");
  await runLimiter.take(actor.id);
  return admitRunLease(actor);
}

async function admitRunLease(actor: Actor): Promise<() => Promise<void>> {
  const { runsPerUser, concurrency, runQueue } = getSandboxRouter().config;
  const release = await admitRun({
    userId: actor.id,
    limits: { perUser: runsPerUser, perInstance: concurrency + runQueue },
  });
  return () =>
    release().catch((error: unknown) => console.error("sandbox: a run's lease could not be released:", error));
}

/**
 * Runs a record in the sandbox for the actor: the canonical solution against the demo test, the full
 * test or both, or an edited scratch copy (the record itself never changes). Every result is stored
 * with who ran it. A user may start 20 runs at once and 30 a minute and have a few going at once (on
 * all app instances together), and this instance's queue is bounded (all RATE_LIMITED); aborting
 * `signal` (the client went away) kills the run and stores nothing.
 * Scoped to records the actor sees. Scope: sandbox:run.
 */
export async function runRecord({
  actor,
  recordId,
  kind,
  solution,
  test,
  signal,
}: {
  actor: Actor;
  recordId: number;
  kind: RunKindInput;
  solution?: string;
  test?: string;
  signal?: AbortSignal;
}): Promise<StoredRun[]> {
  assertCan(actor, "sandbox:run");
  // Before the lookup: asking for records that do not exist costs budget too.
  await runLimiter.take(actor.id);
  const record = await findRecordToRun({ actor, recordId });
  const language = parseLanguage(record.language);
  if (kind === "scratch" && solution === undefined && test === undefined)
    throw new AppError("INVALID_INPUT", "A scratch run needs a solution or a test.", {
      solution: ["Give a solution, a test, or both."],
    });
  const release = await admitRunLease(actor);
  try {
    if (kind === "scratch") {
      const code = { solution: solution ?? record.canonicalSolution, test: test ?? record.fullTestFunc };
      const result = await execute({ language, recordId, ...code }, signal);
      const stored = await storeRun({ recordId, userId: actor.id, kind: "SCRATCH", result, ...code });
      await pruneScratchRuns({ userId: actor.id, ...config().scratchRetention });
      return [stored];
    }
    const kinds: ("DEMO" | "FULL")[] = kind === "both" ? ["DEMO", "FULL"] : kind === "demo" ? ["DEMO"] : ["FULL"];
    const runs: StoredRun[] = [];
    for (const runKind of kinds) {
      const result = await execute(
        {
          language,
          recordId,
          solution: record.canonicalSolution,
          test: runKind === "DEMO" ? record.demoTestFunc : record.fullTestFunc,
        },
        signal,
      );
      runs.push(await storeRun({ recordId, userId: actor.id, kind: runKind, result }));
    }
    return runs;
  } finally {
    await release();
  }
}
