// What a mutant's runs mean, and a record's mutation score from them. Pure.

export type MutantStatus = "KILLED" | "SURVIVED" | "STILLBORN" | "INCONCLUSIVE";

/** A run whose time-out could not be told from a busy machine (lib/records/verification.ts's INCONCLUSIVE). */
const INCONCLUSIVE_OUTCOME = "INCONCLUSIVE";

/** Outcomes that say the mutant never really ran: it did not build, or it timed out. Not counted. */
const STILLBORN_OUTCOMES = new Set([
  "COMPILATION_ERROR",
  "SYNTAX_ERROR",
  "TIME_LIMIT_EXCEEDED",
  "ARGUMENT_ERROR",
  "INTERNAL_ERROR",
]);

/** Whether a run's outcome makes its mutant stillborn (so the other test need not run). */
function isStillbornOutcome(outcome: string): boolean {
  return STILLBORN_OUTCOMES.has(outcome);
}

/** Whether a test rejected the mutant: it ran and did not pass (an inconclusive run says nothing). */
function isKilledBy(outcome: string | null): boolean {
  return outcome !== null && outcome !== "PASSED" && outcome !== INCONCLUSIVE_OUTCOME && !isStillbornOutcome(outcome);
}

/**
 * A mutant's status from its demo and full outcomes (full is null when the demo run did not pass:
 * killed, stillborn or inconclusive there). A test that really rejected it kills it; a time-out a busy machine could explain
 * leaves it INCONCLUSIVE, neither viable nor stillborn.
 */
export function mutantStatus(demoOutcome: string, fullOutcome: string | null): MutantStatus {
  if (isStillbornOutcome(demoOutcome) || (fullOutcome !== null && isStillbornOutcome(fullOutcome))) return "STILLBORN";
  if (isKilledBy(demoOutcome) || isKilledBy(fullOutcome)) return "KILLED";
  if (demoOutcome === INCONCLUSIVE_OUTCOME || fullOutcome === INCONCLUSIVE_OUTCOME) return "INCONCLUSIVE";
  return fullOutcome === null ? "STILLBORN" : "SURVIVED";
}

/**
 * Whether the full test need not run: a mutant stops at its first failing test, demo first. Only a
 * mutant the demo test let through (PASSED) runs the full test; one the demo killed is killed, and
 * one it says never really ran (or cannot say about) is settled there too.
 */
export function isFullRunMoot(demoOutcome: string): boolean {
  return demoOutcome !== "PASSED";
}

export type MutationSummary = {
  generated: number;
  viable: number;
  killed: number;
  demoKilled: number;
  fullKilled: number;
  stillborn: number;
  /** Mutants whose runs could not be told from a busy machine's time-out: neither viable nor stillborn. */
  inconclusive: number;
  /** killed ÷ viable; null when no mutant was viable. */
  score: number | null;
};

/**
 * Counts and the score over a record's mutants: killed ÷ viable, overall and per test (the full
 * test's kills are those of the mutants the demo test let through, so the two add up to the score).
 */
export function summarizeMutants(mutants: { demoOutcome: string; fullOutcome: string | null }[]): MutationSummary {
  let viable = 0;
  let killed = 0;
  let demoKilled = 0;
  let fullKilled = 0;
  let inconclusive = 0;
  for (const mutant of mutants) {
    const status = mutantStatus(mutant.demoOutcome, mutant.fullOutcome);
    if (status === "INCONCLUSIVE") inconclusive++;
    if (status === "STILLBORN" || status === "INCONCLUSIVE") continue;
    viable++;
    if (status === "KILLED") killed++;
    if (isKilledBy(mutant.demoOutcome)) demoKilled++;
    if (isKilledBy(mutant.fullOutcome)) fullKilled++;
  }
  return {
    generated: mutants.length,
    viable,
    killed,
    demoKilled,
    fullKilled,
    stillborn: mutants.length - viable - inconclusive,
    inconclusive,
    score: viable > 0 ? killed / viable : null,
  };
}
