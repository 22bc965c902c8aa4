// Whether a record's tests are flaky, from the outcomes of repeated runs. Pure.

/** Runs per test when nothing else is asked (the K). */
export const DEFAULT_REPEAT = 3;
export const MAX_REPEAT = 20;

/**
 * Flaky when the repeated runs did not all give the same outcomes; null when there is nothing to
 * compare (fewer than two runs). A test that fails every time is not flaky: it is failed.
 */
export function flakyVerdict(outcomes: readonly string[]): boolean | null {
  if (outcomes.length < 2) return null;
  return new Set(outcomes).size > 1;
}
