// What batch verification concluded for a record, as shown and filtered (no server imports: the
// dataset page's filter and the badge use it too).

/** The record's verification outcome when its language has no toolchain here (and no acb route). */
export const UNAVAILABLE = "UNAVAILABLE";

/**
 * The record's verification outcome when the sandbox itself failed before its program started
 * (bubblewrap exits with an error): not run, so nothing is known about the record.
 */
export const SANDBOX_ERROR = "SANDBOX_ERROR";

/**
 * A run's (and then a record's) outcome when a time-out, run again alone, still could not be told
 * from a busy machine: not known, never failed (lib/server/sandbox/steady.ts).
 */
export const INCONCLUSIVE = "INCONCLUSIVE";

/**
 * The record's verification outcome when a run failed because the environment lacks a dependency
 * (a module, header, package, library or crate: lib/runs/environment-failure.ts). Not the record's
 * failure: executable validity stays unknown, and the next batch verifies the record again.
 */
export const ENVIRONMENT_FAILURE = "ENVIRONMENT_FAILURE";

/** The outcome filter's values and the stored outcomes each one matches. */
export const OUTCOME_FILTERS = {
  passed: ["PASSED"],
  compilation_error: ["COMPILATION_ERROR", "SYNTAX_ERROR"],
  time_limit: ["TIME_LIMIT_EXCEEDED"],
  wrong_answer: ["WRONG_ANSWER"],
  runtime_error: ["RUNTIME_ERROR"],
  unavailable: [UNAVAILABLE],
  sandbox_error: [SANDBOX_ERROR],
  inconclusive: [INCONCLUSIVE],
  environment: [ENVIRONMENT_FAILURE],
  not_run: [],
} as const satisfies Record<string, readonly string[]>;

export type OutcomeFilter = keyof typeof OUTCOME_FILTERS;
export const OUTCOME_FILTER_NAMES = Object.keys(OUTCOME_FILTERS) as OutcomeFilter[];

export const OUTCOME_FILTER_LABELS: Record<OutcomeFilter, string> = {
  passed: "passed",
  compilation_error: "compilation error",
  time_limit: "time limit",
  wrong_answer: "wrong answer",
  runtime_error: "runtime error",
  unavailable: "unavailable here",
  sandbox_error: "not run (sandbox error)",
  inconclusive: "inconclusive (busy machine)",
  environment: "not run: environment",
  not_run: "not run yet",
};

/** A stored outcome name in words ("TIME_LIMIT_EXCEEDED" → "time limit exceeded"). */
export function outcomeWords(outcome: string): string {
  if (outcome === UNAVAILABLE) return "unavailable here";
  if (outcome === SANDBOX_ERROR) return "not run (sandbox error)";
  if (outcome === INCONCLUSIVE) return "inconclusive (busy machine)";
  if (outcome === ENVIRONMENT_FAILURE) return "not run: environment";
  return outcome.toLowerCase().replaceAll("_", " ");
}

/**
 * A record's outcome from its two runs: PASSED when both pass, else the first test's that really
 * failed; INCONCLUSIVE when neither failed but one could not be told from a busy machine.
 */
export function summarizeOutcome(demo: string, full: string): string {
  const failed = [demo, full].find((outcome) => outcome !== "PASSED" && outcome !== INCONCLUSIVE);
  if (failed) return failed;
  return demo === INCONCLUSIVE || full === INCONCLUSIVE ? INCONCLUSIVE : "PASSED";
}

/** Whether two runs make the solution executable-valid: null (not known) when the record's outcome is inconclusive. */
export function executableValidity(demo: string, full: string): boolean | null {
  const outcome = summarizeOutcome(demo, full);
  return outcome === INCONCLUSIVE ? null : outcome === "PASSED";
}
