import "server-only";

import type { DecidedBy, FinalLabel } from "@/lib/metrics";

/**
 * The one relation of final labels, over the campaign ids the SQL expression `campaignIds` names (oldest campaign first): one row
 * per counted item with its final verdict, how it was decided, its final categories and the evidence
 * beside it (critic, execution, flag). Defined by `verity_final_labels` (migration
 * 20261201140000_final_labels), which states `finalLabel` (lib/metrics/final-label.ts) in SQL; the
 * property test in final-labels.int.test.ts holds every reader of it equal to `finalLabel`.
 * Gold items only measure annotators: the function's WHERE leaves them out of every reader, the one
 * place that does.
 */
export function finalLabelsOf(campaignIds: string): string {
  return `verity_final_labels(${campaignIds})`;
}

/** The columns of the relation that make up a `FinalLabel`. */
export type FinalLabelColumns = { final_valid: boolean | null; decided_by: string | null; final_categories: string[] };

/** A row's final label in the shape of `finalLabel`'s answer. */
export function toFinalLabel(row: FinalLabelColumns): FinalLabel {
  return { valid: row.final_valid, categories: row.final_categories, decidedBy: row.decided_by as DecidedBy | null };
}
