import "server-only";

import type { Outcome } from "@/lib/server/sandbox/types";

import type { ClassifyInput } from "./types";

/** True when any failure pattern occurs in stdout or stderr (the reference checks both, concatenated). */
export function hasFailureText(stdout: string, stderr: string, patterns: readonly string[]): boolean {
  const output = `${stdout}${stderr}`;
  return patterns.some((pattern) => output.includes(pattern));
}

/**
 * Classifies a run the way DESIGN.md specifies: a refused program is SYNTAX_ERROR; a compile step
 * that timed out or failed is TIME_LIMIT_EXCEEDED or COMPILATION_ERROR; then for the run step the
 * order is timeout, failure text, exit code.
 */
export function classifyRun(input: ClassifyInput, failurePatterns: readonly string[]): Outcome {
  if (input.syntaxError) return "SYNTAX_ERROR";
  if (input.compile) {
    if (input.compile.timedOut) return "TIME_LIMIT_EXCEEDED";
    if (input.compile.exitCode !== 0) return "COMPILATION_ERROR";
  }
  const run = input.run;
  if (!run) return "INTERNAL_ERROR";
  if (run.timedOut) return "TIME_LIMIT_EXCEEDED";
  if (hasFailureText(run.stdout, run.stderr, failurePatterns)) return "WRONG_ANSWER";
  // A null exit code means the process was killed by a signal: a runtime failure too.
  if (run.exitCode !== 0) return "RUNTIME_ERROR";
  return "PASSED";
}

/** Builds the classify function of a recipe from its failure patterns. */
export function patternClassifier(failurePatterns: readonly string[]): (input: ClassifyInput) => Outcome {
  return (input) => classifyRun(input, failurePatterns);
}
