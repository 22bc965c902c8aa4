// How far a critic can be trusted, against people's final labels: pure figures from counts.
// The positive class is "invalid" (the critic fails a record / people chose the category), the
// thing a critic is used to find.

import { kappaFromConfusion } from "./campaign-agreement";
import { wilsonInterval } from "./intervals";

/** A 2×2 table with "invalid" (or "this rule / category") as the positive class. */
export type DetectionCounts = {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
};

type Proportion = { value: number | null; interval: [number, number] | null; successes: number; trials: number };

export type DetectionFigures = {
  n: number;
  precision: Proportion;
  recall: Proportion;
  accuracy: Proportion;
  /** Harmonic mean of precision and recall; null when either is undefined or both are 0. */
  f1: number | null;
  /** Cohen's κ between the critic and people on the same items; null when undefined (no variation). */
  kappa: number | null;
};

function proportion(successes: number, trials: number): Proportion {
  return {
    value: trials > 0 ? successes / trials : null,
    interval: wilsonInterval(successes, trials),
    successes,
    trials,
  };
}

/**
 * Precision, recall and accuracy with 95% Wilson intervals (each is a binomial proportion over its
 * own n: flagged items, truly invalid items, all items), F1 and κ, from one 2×2 table.
 */
export function detectionFigures(counts: DetectionCounts): DetectionFigures {
  const { truePositives: tp, falsePositives: fp, falseNegatives: fn, trueNegatives: tn } = counts;
  const n = tp + fp + fn + tn;
  const precision = proportion(tp, tp + fp);
  const recall = proportion(tp, tp + fn);
  const f1 =
    precision.value === null || recall.value === null || precision.value + recall.value === 0
      ? null
      : (2 * precision.value * recall.value) / (precision.value + recall.value);
  const kappa = kappaFromConfusion({
    bothTrue: tp,
    bothFalse: tn,
    firstTrueSecondFalse: fp,
    firstFalseSecondTrue: fn,
    n,
  });
  return { n, precision, recall, accuracy: proportion(tp + tn, n), f1, kappa };
}

/** One bin of stated confidence: how many verdicts fell in it, their mean confidence, and how many were right. */
export type ConfidenceBin = { bin: number; n: number; confidenceSum: number; correct: number };

export type ReliabilityPoint = {
  bin: number;
  lower: number;
  upper: number;
  n: number;
  meanConfidence: number;
  accuracy: number;
};

/** The bin (0 … bins−1) of a confidence in [0, 1]; 1 falls in the last bin. SQL bins the same way. */
export function confidenceBin(confidence: number, bins: number): number {
  return Math.min(bins - 1, Math.max(0, Math.floor(confidence * bins)));
}

/**
 * The reliability curve (mean stated confidence against the share of verdicts that were right, per
 * bin) and the expected calibration error Σ (n_b / N)·|accuracy_b − confidence_b| (Naeini et al.
 * 2015; Guo et al. 2017). ECE is null with no verdict that states a confidence.
 */
export function reliability(
  bins: ConfidenceBin[],
  binCount: number,
): { points: ReliabilityPoint[]; ece: number | null; n: number } {
  const used = bins.filter((bin) => bin.n > 0).sort((a, b) => a.bin - b.bin);
  const n = used.reduce((sum, bin) => sum + bin.n, 0);
  const points = used.map((bin) => ({
    bin: bin.bin,
    lower: bin.bin / binCount,
    upper: (bin.bin + 1) / binCount,
    n: bin.n,
    meanConfidence: bin.confidenceSum / bin.n,
    accuracy: bin.correct / bin.n,
  }));
  const ece =
    n === 0
      ? null
      : points.reduce((sum, point) => sum + (point.n / n) * Math.abs(point.accuracy - point.meanConfidence), 0);
  return { points, ece, n };
}

/**
 * Per language, the rule whose verdicts disagree with people most often (false positives plus false
 * negatives). Null unless two rules or more had verdicts there: with one, it is blamed only for being
 * the one that could be compared ("Other Issues", when no other rule was mapped or checked).
 */
export function mostWrongRule<T extends DetectionCounts & { rule: string }>(
  rules: T[],
): (T & { wrong: number }) | null {
  const compared = rules.filter(
    (rule) => rule.truePositives + rule.trueNegatives + rule.falsePositives + rule.falseNegatives > 0,
  );
  if (compared.length < 2) return null;
  let worst: (T & { wrong: number }) | null = null;
  for (const rule of compared) {
    const wrong = rule.falsePositives + rule.falseNegatives;
    if (wrong === 0) continue;
    if (!worst || wrong > worst.wrong || (wrong === worst.wrong && rule.rule < worst.rule)) worst = { ...rule, wrong };
  }
  return worst;
}

/** Orders critic versions for the ranking: higher κ on "invalid" first, then F1, then larger n; undefined figures last. */
export function compareCriticVersions(a: DetectionFigures, b: DetectionFigures): number {
  const higherFirst = (x: number | null, y: number | null) => (x === y ? 0 : x === null ? 1 : y === null ? -1 : y - x);
  return higherFirst(a.kappa, b.kappa) || higherFirst(a.f1, b.f1) || b.n - a.n;
}
