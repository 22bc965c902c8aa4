import "server-only";

import type { Outcome } from "@/lib/server/sandbox/types";

import type { ClassifyInput, Recipe } from "./types";

/**
 * How much of each stream the reference sandbox has read when it looks for failure text: it keeps
 * reading 1 KiB at a time until it holds 2 KiB, so text further down is never seen there.
 */
export const REFERENCE_OUTPUT_WINDOW_BYTES = 2048;

function head(text: string, bytes: number): string {
  const buffer = Buffer.from(text, "utf8");
  return buffer.length <= bytes ? text : buffer.subarray(0, bytes).toString("utf8");
}

/**
 * True when a failure pattern occurs in what the reference sees of the output: the head of stdout
 * followed by the head of stderr (concatenated, so a pattern may straddle the two).
 */
export function hasFailureText(stdout: string, stderr: string, patterns: readonly string[]): boolean {
  const output = `${head(stdout, REFERENCE_OUTPUT_WINDOW_BYTES)}${head(stderr, REFERENCE_OUTPUT_WINDOW_BYTES)}`;
  return patterns.some((pattern) => output.includes(pattern));
}

/** The parts of a recipe that classification reads. */
export type ClassifyRules = Pick<Recipe, "failurePatterns" | "checkPassedRun">;

/**
 * Classifies a run with the reference sandbox's rules: a refused program is SYNTAX_ERROR; a compile
 * step that timed out or failed is TIME_LIMIT_EXCEEDED or COMPILATION_ERROR; then for the run step
 * the order is timeout, exit code, failure text. Failure text therefore only turns a run that exited
 * 0 into WRONG_ANSWER: a failing assertion that crashes the program is RUNTIME_ERROR, as there.
 * Last, the recipe may take a second look at a run that would otherwise pass (Java's JUnit summary).
 */
export function classifyRun(input: ClassifyInput, rules: ClassifyRules): Outcome {
  if (input.syntaxError) return "SYNTAX_ERROR";
  if (input.compile) {
    if (input.compile.timedOut) return "TIME_LIMIT_EXCEEDED";
    if (input.compile.exitCode !== 0) return "COMPILATION_ERROR";
  }
  const run = input.run;
  if (!run) return "INTERNAL_ERROR";
  if (run.timedOut) return "TIME_LIMIT_EXCEEDED";
  // A null exit code means the process was killed by a signal: a runtime failure too.
  if (run.exitCode !== 0) return "RUNTIME_ERROR";
  if (hasFailureText(run.stdout, run.stderr, rules.failurePatterns)) return "WRONG_ANSWER";
  return rules.checkPassedRun?.(run) ?? "PASSED";
}

/** A recipe without its classifier; `defineRecipe` derives that from the recipe's own rules. */
export type RecipeSpec = Omit<Recipe, "classify">;

/** Completes a recipe with the classifier built from its `failurePatterns` and `checkPassedRun`. */
export function defineRecipe(spec: RecipeSpec): Recipe {
  return { ...spec, classify: (input) => classifyRun(input, spec) };
}
