// Whether a record's tests are flaky, from the outcomes of repeated runs. Pure.

/** Runs per test when nothing else is asked (the K). */
export const DEFAULT_REPEAT = 3;
export const MAX_REPEAT = 20;

/** Outcomes of a run that ended in a time-out, which a busy machine may explain. */
const TIME_OUT = /\b(TIME_LIMIT_EXCEEDED|INCONCLUSIVE)\b/;

/**
 * Flaky when the repeated runs did not all give the same outcomes and no time-out explains the
 * difference; null when it cannot be told: fewer than two runs, or outcomes that differ where a run
 * timed out (the machine, not the test, may be what changed). A test that fails every time is not
 * flaky: it is failed.
 */
export function flakyVerdict(outcomes: readonly string[]): boolean | null {
  if (outcomes.length < 2) return null;
  if (new Set(outcomes).size === 1) return false;
  return outcomes.some((outcome) => TIME_OUT.test(outcome)) ? null : true;
}
