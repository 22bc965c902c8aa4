// How far an automatic signal can be trusted to find invalid records: the signal's flag ("this
// record is invalid") against people's final label, on the items where both are known. "Invalid"
// is the positive class: precision = of the records the signal flags, the share people found
// invalid; recall = of the records people found invalid, the share the signal flags. κ is Cohen's
// kappa between the two verdicts (chance-corrected agreement). Each proportion carries its Wilson 95%
// interval and the n it rests on.

import { precisionRecall } from "./agreement";
import { kappaFromConfusion } from "./campaign-agreement";
import { wilsonInterval } from "./intervals";

/** The four cells, "invalid" positive: flagged and invalid, flagged but valid, missed invalid, rightly quiet. */
export type SignalCounts = {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
};

export type SignalTrust = SignalCounts & {
  /** Items with a final label on which the signal has a verdict. */
  n: number;
  /** Items the signal flags. */
  flagged: number;
  precision: number | null;
  precisionInterval: [number, number] | null;
  recall: number | null;
  recallInterval: [number, number] | null;
  kappa: number | null;
};

/** Precision and recall for "invalid", each with its Wilson interval, and κ, from the four cells. Pure. */
export function signalTrust(counts: SignalCounts): SignalTrust {
  const { truePositives, falsePositives, falseNegatives, trueNegatives } = counts;
  const n = truePositives + falsePositives + falseNegatives + trueNegatives;
  const { precision, recall } = precisionRecall(counts);
  // As a 2×2 of (signal says invalid, people say invalid).
  const kappa = kappaFromConfusion({
    bothTrue: truePositives,
    bothFalse: trueNegatives,
    firstTrueSecondFalse: falsePositives,
    firstFalseSecondTrue: falseNegatives,
    n,
  });
  return {
    ...counts,
    n,
    flagged: truePositives + falsePositives,
    precision,
    precisionInterval: wilsonInterval(truePositives, truePositives + falsePositives),
    recall,
    recallInterval: wilsonInterval(truePositives, truePositives + falseNegatives),
    kappa,
  };
}

/** Adds cell counts (per-language rows into a total). Pure. */
export function addSignalCounts(rows: readonly SignalCounts[]): SignalCounts {
  return rows.reduce<SignalCounts>(
    (sum, row) => ({
      truePositives: sum.truePositives + row.truePositives,
      falsePositives: sum.falsePositives + row.falsePositives,
      falseNegatives: sum.falseNegatives + row.falseNegatives,
      trueNegatives: sum.trueNegatives + row.trueNegatives,
    }),
    { truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0 },
  );
}
