// Inter-rater agreement for nominal labels: raw agreement, Cohen's κ, Fleiss' κ, Krippendorff's α.
// Every coefficient returns null where it is mathematically undefined; none invents a value.

/** A nominal rating. `true` and `"true"` are different labels. */
export type Label = string | boolean;

/** Counts how often each label occurs; Map keys compare with SameValueZero, so booleans and strings stay apart. */
function countLabels(labels: readonly Label[]): Map<Label, number> {
  const counts = new Map<Label, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  return counts;
}

function presentRatings(item: readonly (Label | null)[]): Label[] {
  return item.filter((rating): rating is Label => rating !== null);
}

/** Mean over items with ≥ 2 non-null ratings of the share of agreeing rater pairs; null when no item has 2 ratings. */
export function percentAgreement(items: (Label | null)[][]): number | null {
  let sum = 0;
  let counted = 0;
  for (const item of items) {
    const ratings = presentRatings(item);
    const m = ratings.length;
    if (m < 2) continue;
    let agreeingPairs = 0;
    for (const count of countLabels(ratings).values()) agreeingPairs += count * (count - 1);
    sum += agreeingPairs / (m * (m - 1));
    counted += 1;
  }
  return counted === 0 ? null : sum / counted;
}

/** Cohen's κ for two raters over the items both rated; null when there are no pairs or expected agreement is 1. */
export function cohensKappa(pairs: [Label, Label][]): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const first = countLabels(pairs.map(([a]) => a));
  const second = countLabels(pairs.map(([, b]) => b));
  let agreements = 0;
  for (const [a, b] of pairs) if (a === b) agreements += 1;
  // Work in integer counts scaled by n²: p_o·n² = agreements·n, p_e·n² = Σ a_c·b_c.
  let expectedScaled = 0;
  for (const [label, count] of first) expectedScaled += count * (second.get(label) ?? 0);
  const nSquared = n * n;
  if (expectedScaled === nSquared) return null;
  return (agreements * n - expectedScaled) / (nSquared - expectedScaled);
}

/**
 * Fleiss' κ for items that each carry exactly n ≥ 2 ratings (callers pass only items with exactly n ratings);
 * null when there is no item, when rating counts differ or are below 2, or when P̄e = 1 (a single label used throughout).
 */
export function fleissKappa(items: Label[][]): number | null {
  const itemCount = items.length;
  if (itemCount < 1) return null;
  const n = items[0].length;
  if (n < 2 || items.some((item) => item.length !== n)) return null;

  const totals = new Map<Label, number>();
  let sumPi = 0;
  for (const item of items) {
    let sumSquares = 0;
    for (const [label, count] of countLabels(item)) {
      sumSquares += count * count;
      totals.set(label, (totals.get(label) ?? 0) + count);
    }
    sumPi += (sumSquares - n) / (n * (n - 1));
  }
  if (totals.size < 2) return null;

  const allRatings = itemCount * n;
  let pe = 0;
  for (const total of totals.values()) pe += (total / allRatings) ** 2;
  const pBar = sumPi / itemCount;
  return (pBar - pe) / (1 - pe);
}

/**
 * Krippendorff's α for nominal data, units × coders with null for missing; only units with ≥ 2 values are pairable.
 * Null when fewer than 2 pairable values exist or when expected disagreement is 0 (a single label among them).
 */
export function krippendorffAlphaNominal(items: (Label | null)[][]): number | null {
  // Coincidence-matrix form (Krippendorff 2011): α = 1 − (n − 1)·Σ_{c≠k} o_ck / Σ_{c≠k} n_c·n_k.
  let pairable = 0;
  let observedAgreement = 0; // Σ_c o_cc
  const valueTotals = new Map<Label, number>(); // n_c
  for (const unit of items) {
    const values = presentRatings(unit);
    const m = values.length;
    if (m < 2) continue;
    pairable += m;
    for (const [label, count] of countLabels(values)) {
      observedAgreement += (count * (count - 1)) / (m - 1);
      valueTotals.set(label, (valueTotals.get(label) ?? 0) + count);
    }
  }
  if (pairable < 2) return null;

  let sumSquares = 0;
  for (const total of valueTotals.values()) sumSquares += total * total;
  const expectedDisagreement = pairable * pairable - sumSquares; // Σ_{c≠k} n_c·n_k
  if (expectedDisagreement === 0) return null;
  const observedDisagreement = pairable - observedAgreement; // Σ_{c≠k} o_ck
  return 1 - ((pairable - 1) * observedDisagreement) / expectedDisagreement;
}

export type Confusion2x2 = {
  bothTrue: number;
  bothFalse: number;
  firstTrueSecondFalse: number;
  firstFalseSecondTrue: number;
  n: number;
};

/** Cross-tabulates paired booleans into the four cells of a 2×2 table; always defined (all zeros for no pairs). */
export function confusion2x2(pairs: [boolean, boolean][]): Confusion2x2 {
  const table: Confusion2x2 = { bothTrue: 0, bothFalse: 0, firstTrueSecondFalse: 0, firstFalseSecondTrue: 0, n: 0 };
  for (const [first, second] of pairs) {
    if (first && second) table.bothTrue += 1;
    else if (!first && !second) table.bothFalse += 1;
    else if (first) table.firstTrueSecondFalse += 1;
    else table.firstFalseSecondTrue += 1;
    table.n += 1;
  }
  return table;
}

export type PrecisionRecallCounts = { truePositives: number; falsePositives: number; falseNegatives: number };

/** Precision TP/(TP+FP) and recall TP/(TP+FN); each is null when its denominator is 0. */
export function precisionRecall({ truePositives, falsePositives, falseNegatives }: PrecisionRecallCounts): {
  precision: number | null;
  recall: number | null;
} {
  const predicted = truePositives + falsePositives;
  const actual = truePositives + falseNegatives;
  return {
    precision: predicted === 0 ? null : truePositives / predicted,
    recall: actual === 0 ? null : truePositives / actual,
  };
}
