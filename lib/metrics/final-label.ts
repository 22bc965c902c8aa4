// Resolves one record's final verdict from its annotators' labels under a campaign's aggregation rule.
// This file states the rule; its engine is the SQL relation `verity_final_labels` (migration
// 20261201140000_final_labels), which every reader of final labels pages through, and
// lib/server/review/final-labels.int.test.ts holds every reader equal to `finalLabel`.

export type AggregationRule = "consensus" | "majority" | "strict";

export type AnnotatorLabel = { valid: boolean; categories: string[] };

export type DecidedBy = "adjudication" | "unanimous" | "majority" | "strict";

export type FinalLabel = { valid: boolean | null; categories: string[]; decidedBy: DecidedBy | null };

export type FinalVerdict = Omit<FinalLabel, "categories">;

export type FinalLabelInput = {
  rule: AggregationRule;
  labels: AnnotatorLabel[];
  adjudication: AnnotatorLabel | null;
  /** Category keys that make a record invalid; others (e.g. "weak-coverage") never reach an Invalid verdict's categories. */
  invalidatingKeys: Set<string>;
};

/** Everything the verdict depends on: how many labels, how many say Valid, and the adjudication's verdict if any. */
export type LabelCounts = {
  rule: AggregationRule;
  labelCount: number;
  validCount: number;
  adjudicationValid: boolean | null;
};

/** Where a final label's categories come from: the adjudicator's, the invalidating ones of those who said Invalid, or none. */
type CategorySource = "adjudication" | "invalid-labels" | null;

const UNRESOLVED: FinalVerdict = { valid: null, decidedBy: null };

/**
 * The verdict of one record from its label counts: an adjudication always wins, otherwise the rule decides;
 * "unanimous" whenever all annotators agree. Unresolved (valid null, decidedBy null) with no labels, or on
 * disagreement under consensus, or without a strict majority under majority.
 */
export function finalVerdict({ rule, labelCount, validCount, adjudicationValid }: LabelCounts): FinalVerdict {
  if (adjudicationValid !== null) return { valid: adjudicationValid, decidedBy: "adjudication" };
  if (labelCount === 0) return UNRESOLVED;
  const invalidCount = labelCount - validCount;
  if (invalidCount === 0) return { valid: true, decidedBy: "unanimous" };
  if (validCount === 0) return { valid: false, decidedBy: "unanimous" };
  switch (rule) {
    case "consensus":
      return UNRESOLVED;
    case "majority":
      if (validCount * 2 > labelCount) return { valid: true, decidedBy: "majority" };
      if (invalidCount * 2 > labelCount) return { valid: false, decidedBy: "majority" };
      return UNRESOLVED;
    case "strict":
      return { valid: false, decidedBy: "strict" };
  }
}

/** An adjudication brings its own categories (whatever its verdict); an annotators' Invalid brings theirs; a Valid none. */
function categorySource(verdict: FinalVerdict): CategorySource {
  if (verdict.decidedBy === "adjudication") return "adjudication";
  return verdict.valid === false ? "invalid-labels" : null;
}

/** Whether a category key found in a source counts among the final categories: annotators' only when it invalidates. */
function isFinalCategory(
  source: Exclude<CategorySource, null>,
  key: string,
  invalidatingKeys: ReadonlySet<string>,
): boolean {
  return source === "adjudication" || invalidatingKeys.has(key);
}

/** The final label of one record: `finalVerdict` over its labels, with the categories `categorySource` names. */
export function finalLabel({ rule, labels, adjudication, invalidatingKeys }: FinalLabelInput): FinalLabel {
  const verdict = finalVerdict({
    rule,
    labelCount: labels.length,
    validCount: labels.filter((label) => label.valid).length,
    adjudicationValid: adjudication?.valid ?? null,
  });
  const source = categorySource(verdict);
  if (source === "adjudication") return { ...verdict, categories: [...adjudication!.categories] };
  if (source === "invalid-labels") return { ...verdict, categories: invalidatingCategories(labels, invalidatingKeys) };
  return { ...verdict, categories: [] };
}

/** Sorted, deduplicated union of the invalidating categories chosen by the annotators who said Invalid. */
function invalidatingCategories(labels: readonly AnnotatorLabel[], invalidatingKeys: ReadonlySet<string>): string[] {
  const keys = new Set<string>();
  for (const label of labels) {
    if (label.valid) continue;
    for (const key of label.categories) if (isFinalCategory("invalid-labels", key, invalidatingKeys)) keys.add(key);
  }
  return [...keys].sort();
}

/**
 * How strongly a verdict is supported, for the cross-campaign rule (a record labelled in several campaigns counts
 * once, with its strongest label): any resolved label beats an unresolved one, an adjudication beats annotators,
 * and more annotators agreeing with the verdict beat fewer; among unresolved ones a labelled item beats an
 * unlabelled one. Equal strength: the latest campaign wins (`strongestEvidence`, and the reports' SQL order).
 */
export function evidenceStrength(
  verdict: FinalVerdict,
  counts: Pick<LabelCounts, "labelCount" | "validCount">,
): number {
  if (verdict.valid === null) return counts.labelCount > 0 ? 1 : 0;
  const agreeing = verdict.valid ? counts.validCount : counts.labelCount - counts.validCount;
  // Below 1,000,000 annotators per item, the tiers cannot overlap.
  return (verdict.decidedBy === "adjudication" ? 2_000_000 : 1_000_000) + agreeing;
}

/** The item whose label a record keeps across campaigns: the strongest evidence; on a tie, the latest (last in `items`). */
export function strongestEvidence<
  T extends { verdict: FinalVerdict; counts: Pick<LabelCounts, "labelCount" | "validCount"> },
>(items: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const item of items)
    if (!best || evidenceStrength(item.verdict, item.counts) >= evidenceStrength(best.verdict, best.counts))
      best = item;
  return best;
}
