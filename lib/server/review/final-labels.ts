import "server-only";

import type { DecidedBy, FinalLabel } from "@/lib/metrics";

/**
 * The one relation of final labels, over the campaign ids the SQL expression `campaignIds` names (oldest campaign first): one row
 * per counted item with its final verdict, how it was decided, its final categories, the review
 * queues it is in and the evidence beside it (critic, execution, flag). Defined by
 * `verity_final_labels` (migrations 20261201140000_final_labels and 20261201180700_final_labels_kept),
 * which states `finalLabel` (lib/metrics/final-label.ts) in SQL; readers read the same rows as
 * triggers keep them on each item (`verity_kept_final_labels`) in the transaction of every write that
 * changes one, so a reader never recomputes a campaign. The property test in final-labels.int.test.ts
 * holds every reader equal to `finalLabel`, and the kept rows equal to the definition after random writes.
 * Gold items only measure annotators: the function's WHERE leaves them out of every reader, the one
 * place that does.
 */
export function finalLabelsOf(campaignIds: string): string {
  return `verity_kept_final_labels(${campaignIds})`;
}

/** The definition itself, computed from the labels: only what keeps the rows, and the tests, read it. */
export function definedFinalLabelsOf(campaignIds: string): string {
  return `verity_final_labels(${campaignIds})`;
}

/** The columns of the relation that make up a `FinalLabel`. */
export type FinalLabelColumns = { final_valid: boolean | null; decided_by: string | null; final_categories: string[] };

/** A row's final label in the shape of `finalLabel`'s answer. */
export function toFinalLabel(row: FinalLabelColumns): FinalLabel {
  return { valid: row.final_valid, categories: row.final_categories, decidedBy: row.decided_by as DecidedBy | null };
}
