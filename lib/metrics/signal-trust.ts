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

/** The signals, each saying "invalid" of a record, in the order the page lists them; critic rules follow, by name. */
const SIGNAL_ORDER = ["critic", "execution", "flaky", "weak-tests", "unsolved"] as const;

/** One signal's counts in one language. */
export type SignalCountRow = { signal: string; language: string } & SignalCounts;

export type SignalTrustRow = SignalTrust & { signal: string; byLanguage: Record<string, SignalTrust> };

/** The signal-vs-people table from per-language counts: one row per signal, overall and per language. */
export function signalTrustTable(rows: readonly SignalCountRow[]): SignalTrustRow[] {
  const cells = ({ truePositives, falsePositives, falseNegatives, trueNegatives }: SignalCounts): SignalCounts => ({
    truePositives,
    falsePositives,
    falseNegatives,
    trueNegatives,
  });
  const bySignal = new Map<string, SignalCountRow[]>();
  for (const row of rows) {
    const languages = bySignal.get(row.signal);
    if (languages) languages.push(row);
    else bySignal.set(row.signal, [row]);
  }
  const rank = (signal: string) => {
    const index = (SIGNAL_ORDER as readonly string[]).indexOf(signal);
    return index >= 0 ? index : SIGNAL_ORDER.length;
  };
  return [...bySignal.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([signal, languages]) => ({
      signal,
      ...signalTrust(addSignalCounts(languages.map(cells))),
      byLanguage: Object.fromEntries(
        [...languages]
          .sort((a, b) => (a.language < b.language ? -1 : 1))
          .map((row) => [row.language, signalTrust(cells(row))]),
      ),
    }));
}
