// Resolves one record's final verdict from its annotators' labels under a campaign's aggregation rule.

export type AggregationRule = "consensus" | "majority" | "strict";

export type AnnotatorLabel = { valid: boolean; categories: string[] };

export type DecidedBy = "adjudication" | "unanimous" | "majority" | "strict";

export type FinalLabel = { valid: boolean | null; categories: string[]; decidedBy: DecidedBy | null };

export type FinalLabelInput = {
  rule: AggregationRule;
  labels: AnnotatorLabel[];
  adjudication: AnnotatorLabel | null;
  /** Category keys that make a record invalid; others (e.g. "weak-coverage") never reach an Invalid verdict's categories. */
  invalidatingKeys: Set<string>;
};

const UNRESOLVED: FinalLabel = { valid: null, categories: [], decidedBy: null };

/**
 * The final label of one record: an adjudication always wins, otherwise the rule decides; "unanimous" whenever all
 * annotators agree. Unresolved (valid null, decidedBy null) with no labels, or on disagreement under consensus, or
 * without a strict majority under majority.
 */
export function finalLabel({ rule, labels, adjudication, invalidatingKeys }: FinalLabelInput): FinalLabel {
  if (adjudication) {
    return { valid: adjudication.valid, categories: [...adjudication.categories], decidedBy: "adjudication" };
  }
  if (labels.length === 0) return { ...UNRESOLVED, categories: [] };

  const invalidCount = labels.filter((label) => !label.valid).length;
  const validCount = labels.length - invalidCount;
  const decided = (valid: boolean, decidedBy: DecidedBy): FinalLabel => ({
    valid,
    categories: valid ? [] : invalidatingCategories(labels, invalidatingKeys),
    decidedBy,
  });

  if (invalidCount === 0) return decided(true, "unanimous");
  if (validCount === 0) return decided(false, "unanimous");

  switch (rule) {
    case "consensus":
      return { ...UNRESOLVED, categories: [] };
    case "majority":
      if (validCount * 2 > labels.length) return decided(true, "majority");
      if (invalidCount * 2 > labels.length) return decided(false, "majority");
      return { ...UNRESOLVED, categories: [] };
    case "strict":
      return decided(false, "strict");
  }
}

/** Sorted, deduplicated union of the invalidating categories chosen by the annotators who said Invalid. */
function invalidatingCategories(labels: readonly AnnotatorLabel[], invalidatingKeys: ReadonlySet<string>): string[] {
  const keys = new Set<string>();
  for (const label of labels) {
    if (label.valid) continue;
    for (const key of label.categories) if (invalidatingKeys.has(key)) keys.add(key);
  }
  return [...keys].sort();
}
