// Where people should look: the four evidence reasons a record deserves a human look (weak tests,
// flaky, solved by no model, critic and execution disagree) and the suspicion score that orders a
// cleaning campaign. Client-safe and pure. The dataset filters and the review page's evidence queues
// state the same reasons as database conditions (lib/server/evidence/reasons.ts); the score is also
// the SQL function verity_suspicion_score (migration 20261201204500_suspicion_sampling) that orders a
// suspicion campaign's items; integration tests hold both to these functions.

import { type PreLabelVisibilityName, shownBeforeFirstLabel, VISIBILITY_EXPLANATIONS } from "@/lib/evidence/visibility";

/**
 * How a campaign chooses and orders its items: `random`, a seeded stratified sample in a secret random
 * order, whose labels estimate the dataset's validity; or `suspicion`, per language the records with
 * the highest suspicion score, most suspicious first, for cleaning. Validity rates count random
 * campaigns only: a sample chosen by suspicion is not a sample of the dataset.
 */
export const SAMPLING_MODES = ["random", "suspicion"] as const;
export type SamplingMode = (typeof SAMPLING_MODES)[number];

/**
 * Why a campaign showing `level` before the first label may not be ordered by suspicion, or null when
 * it may. Its order is computed from what the campaign shows (the critic only at "all", and never a
 * critic another blind campaign hides: lib/server/auth/visibility.ts), so that annotators cannot read
 * hidden evidence off the order in which items come; below "all but the critic" nothing that scores is
 * shown, and an order by what is hidden would give it away.
 */
export function suspicionOrderRefusal(level: PreLabelVisibilityName): string | null {
  if (shownBeforeFirstLabel(level).evidence) return null;
  return `Most suspicious first orders items by evidence (test strength, flakiness, solvers, critic) that "${VISIBILITY_EXPLANATIONS[level].label}" hides before the first label: the order would tell annotators what is hidden. Choose "All but the critic" or "All", or random sampling.`;
}

/** Below this mutation score a record's tests count as weak, unless the viewer chooses another. */
export const WEAK_TESTS_THRESHOLD = 0.5;

/** The evidence reasons, in the order filters and tabs show them. */
export const EVIDENCE_REASONS = ["weak_tests", "flaky", "unsolved", "critic_vs_execution"] as const;
export type EvidenceReason = (typeof EVIDENCE_REASONS)[number];

export const EVIDENCE_REASON_LABELS: Record<EvidenceReason, string> = {
  weak_tests: "Weak tests",
  flaky: "Flaky",
  unsolved: "Solved by no model",
  critic_vs_execution: "Critic vs execution",
};

/**
 * The reasons that read the critic: only people who review (never annotators, whom a campaign may
 * keep from the critic) filter or queue by them.
 */
export const CRITIC_READING_REASONS: readonly EvidenceReason[] = ["critic_vs_execution"];

/** What the reasons and the score are computed from: a record's stored evidence. */
export type SuspicionFacts = {
  /** The newest mutation analysis's score (killed ÷ viable); null until measured or unmeasurable. */
  mutationScore: number | null;
  /** Repeated runs differed (true), agreed (false), not checked (null). */
  flaky: boolean | null;
  /** Solver solutions that ran (passed is known) and how many of them passed both tests. */
  solversTotal: number;
  solversSolved: number;
  /** The record's critic verdict: pass, fail, or none/unclear (null). */
  criticPass: boolean | null;
  /** Batch verification: the canonical solution passed both tests (true), failed one (false), not known (null, also when unavailable here). */
  executableValid: boolean | null;
};

/** How the critic and execution disagree, when they do. */
export type CriticExecutionDisagreement = "critic-pass-execution-failed" | "critic-fail-execution-passed";

/**
 * Whether the critic and execution disagree about a record: the critic passed it but the canonical
 * solution fails its own tests, or the critic failed it but the solution passes them. Both must have
 * a verdict: a missing or unclear critic, a record not verified or not runnable here (executableValid
 * null) is no disagreement. A flaky record is none either: its execution outcome is not a verdict
 * (it may pass or fail on the next run), and "flaky" is a reason of its own.
 */
export function criticExecutionDisagreement(
  facts: Pick<SuspicionFacts, "criticPass" | "executableValid" | "flaky">,
): CriticExecutionDisagreement | null {
  if (facts.criticPass === null || facts.executableValid === null || facts.flaky === true) return null;
  if (facts.criticPass && !facts.executableValid) return "critic-pass-execution-failed";
  if (!facts.criticPass && facts.executableValid) return "critic-fail-execution-passed";
  return null;
}

/** Tests are weak when their measured mutation score is below the threshold (unmeasured is not weak). */
export function hasWeakTests(facts: Pick<SuspicionFacts, "mutationScore">, weakBelow = WEAK_TESTS_THRESHOLD): boolean {
  return facts.mutationScore !== null && facts.mutationScore < weakBelow;
}

/** Solved by no model: at least one solver's solution ran, and none passed both tests. */
export function isUnsolved(facts: Pick<SuspicionFacts, "solversTotal" | "solversSolved">): boolean {
  return facts.solversTotal > 0 && facts.solversSolved === 0;
}

/** The evidence reasons a record is in, in EVIDENCE_REASONS order. */
export function evidenceReasonsOf(facts: SuspicionFacts, weakBelow = WEAK_TESTS_THRESHOLD): EvidenceReason[] {
  const holds: Record<EvidenceReason, boolean> = {
    weak_tests: hasWeakTests(facts, weakBelow),
    flaky: facts.flaky === true,
    unsolved: isUnsolved(facts),
    critic_vs_execution: criticExecutionDisagreement(facts) !== null,
  };
  return EVIDENCE_REASONS.filter((reason) => holds[reason]);
}

/**
 * Points per reason. A flaky test is a defect by itself (the record cannot be judged by running it);
 * no model solving a record and the two automatic judges contradicting each other are the strongest
 * pointers to a flawed statement or expected value; weak tests let wrong solutions pass but the
 * record may still be right. Documented in docs/features.md; change both together.
 */
const REASON_POINTS: Record<EvidenceReason, number> = { flaky: 4, unsolved: 3, critic_vs_execution: 3, weak_tests: 2 };

/**
 * How suspicious a record looks, for ordering a cleaning campaign: the points of each reason it is in
 * (REASON_POINTS), plus two graded parts below one point each so that, within the same reasons,
 * weaker tests (1 − mutation score, when measured) and fewer solving models (1 − solved ÷ total,
 * when any ran) come first. A record with no evidence scores 0. Pure; the SQL function
 * verity_suspicion_score computes the same sum in the same order.
 */
export function suspicionScore(facts: SuspicionFacts, weakBelow = WEAK_TESTS_THRESHOLD): number {
  let score = 0;
  for (const reason of evidenceReasonsOf(facts, weakBelow)) score += REASON_POINTS[reason];
  if (facts.mutationScore !== null) score += (1 - facts.mutationScore) / 2;
  if (facts.solversTotal > 0) score += (1 - facts.solversSolved / facts.solversTotal) / 2;
  return score;
}
