// Agreement figures for a campaign. Pure: the item-based functions define each figure; the count-based
// ones below compute the same from the counts the data layer takes in SQL.
import {
  type Confusion2x2,
  cohensKappa,
  confusion2x2,
  fleissKappa,
  krippendorffAlphaNominal,
  percentAgreement,
  precisionRecall,
} from "./agreement";

export type LabelledItem = {
  language: string;
  labels: { userId: string; valid: boolean; categories: string[]; activeMs: number; updatedAt: Date }[];
  final: { valid: boolean | null; categories: string[] };
  criticPass: boolean | null;
  criticFailedRules: string[];
  /** Whether the canonical solution passed its own tests; null when it was not run or its language cannot run. */
  executableValid: boolean | null;
};

export type AgreementFigures = {
  items: number;
  percentAgreement: number | null;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  cohensKappa: number | null;
};

export type HumanVsCritic = {
  items: number;
  kappa: number | null;
  confusion: {
    bothValid: number;
    bothInvalid: number;
    humanValidCriticInvalid: number;
    humanInvalidCriticValid: number;
  };
};

/**
 * Human–human agreement on valid/invalid over items with at least two labels. Fleiss' kappa uses the
 * items with the most common number of labels; Cohen's kappa exists only when exactly two people
 * labelled the items (null otherwise, never a made-up number).
 */
export function humanAgreement(items: LabelledItem[]): AgreementFigures {
  const multi = items.filter((item) => item.labels.length >= 2);
  const raters = [...new Set(multi.flatMap((item) => item.labels.map((label) => label.userId)))];
  const matrix = multi.map((item) =>
    raters.map((rater) => item.labels.find((label) => label.userId === rater)?.valid ?? null),
  );
  const sizes = new Map<number, number>();
  for (const item of multi) sizes.set(item.labels.length, (sizes.get(item.labels.length) ?? 0) + 1);
  const commonSize = [...sizes.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0];
  const fleissItems = multi
    .filter((item) => item.labels.length === commonSize)
    .map((item) => item.labels.map((label) => label.valid));
  const cohen =
    raters.length === 2
      ? cohensKappa(
          multi.flatMap((item) => {
            const [a, b] = raters.map((rater) => item.labels.find((label) => label.userId === rater));
            return a && b ? [[a.valid, b.valid] as [boolean, boolean]] : [];
          }),
        )
      : null;
  return {
    items: multi.length,
    percentAgreement: percentAgreement(matrix),
    fleissKappa: fleissItems.length ? fleissKappa(fleissItems) : null,
    krippendorffAlpha: krippendorffAlphaNominal(matrix),
    cohensKappa: cohen,
  };
}

/** The humans' final label against a reference verdict, over resolved items where the reference exists. */
function finalAgainst(items: LabelledItem[], reference: (item: LabelledItem) => boolean | null) {
  const pairs = items.flatMap((item) => {
    const other = reference(item);
    return item.final.valid !== null && other !== null ? [[item.final.valid, other] as [boolean, boolean]] : [];
  });
  return { items: pairs.length, kappa: cohensKappa(pairs), confusion: confusion2x2(pairs) };
}

/** The humans' final label against the critic's overall_pass, over items with both. */
export function humanVsCritic(items: LabelledItem[]): HumanVsCritic {
  const { confusion, ...figures } = finalAgainst(items, (item) => item.criticPass);
  return {
    ...figures,
    confusion: {
      bothValid: confusion.bothTrue,
      bothInvalid: confusion.bothFalse,
      humanValidCriticInvalid: confusion.firstTrueSecondFalse,
      humanInvalidCriticValid: confusion.firstFalseSecondTrue,
    },
  };
}

export type HumanVsExecution = {
  items: number;
  /** Resolved items left out because their record was not run or its language cannot run. */
  notRun: number;
  kappa: number | null;
  confusion: {
    bothValid: number;
    bothInvalid: number;
    humanValidExecutionInvalid: number;
    humanInvalidExecutionValid: number;
  };
};

/** The humans' final label against execution (the canonical solution passing its tests), leaving out records that did not run. */
export function humanVsExecution(items: LabelledItem[]): HumanVsExecution {
  const { confusion, ...figures } = finalAgainst(items, (item) => item.executableValid);
  return {
    ...figures,
    notRun: items.filter((item) => item.final.valid !== null && item.executableValid === null).length,
    confusion: {
      bothValid: confusion.bothTrue,
      bothInvalid: confusion.bothFalse,
      humanValidExecutionInvalid: confusion.firstTrueSecondFalse,
      humanInvalidExecutionValid: confusion.firstFalseSecondTrue,
    },
  };
}

export type RuleMatch = {
  rule: string;
  category: string;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number | null;
  recall: number | null;
};

/**
 * Per critic rule mapped to a category: how often a failed rule matches the humans' final category
 * (precision) and how often the humans' category was caught by the rule (recall), over resolved items with a critic verdict.
 */
export function criticRuleMatches(
  items: LabelledItem[],
  mapping: { key: string; criticRule: string | null }[],
): RuleMatch[] {
  const judged = items.filter((item) => item.final.valid !== null && item.criticPass !== null);
  return mapping.flatMap(({ key, criticRule }) => {
    if (!criticRule) return [];
    const rule = criticRule.toLowerCase();
    let truePositives = 0;
    let falsePositives = 0;
    let falseNegatives = 0;
    for (const item of judged) {
      const isFlagged = item.criticFailedRules.some((failed) => failed.toLowerCase() === rule);
      const isTagged = item.final.categories.includes(key);
      if (isFlagged && isTagged) truePositives += 1;
      else if (isFlagged) falsePositives += 1;
      else if (isTagged) falseNegatives += 1;
    }
    return [
      {
        rule: criticRule,
        category: key,
        truePositives,
        falsePositives,
        falseNegatives,
        ...precisionRecall({ truePositives, falsePositives, falseNegatives }),
      },
    ];
  });
}

export type AnnotatorStats = {
  userId: string;
  items: number;
  medianActiveMs: number | null;
  meanActiveMs: number | null;
  fastDecisions: number;
  itemsPerDay: number | null;
  agreementWithFinal: number | null;
  pairwiseKappa: Record<string, number | null>;
};

export const FAST_DECISION_MS = 10_000;

/** Per annotator: volume, active time, very fast decisions, agreement with final labels, pairwise kappa with each other annotator. */
export function annotatorStatistics(items: LabelledItem[]): AnnotatorStats[] {
  const byUser = new Map<string, { label: LabelledItem["labels"][number]; item: LabelledItem }[]>();
  for (const item of items)
    for (const label of item.labels) {
      const entries = byUser.get(label.userId);
      if (entries) entries.push({ label, item });
      else byUser.set(label.userId, [{ label, item }]);
    }
  const users = [...byUser.keys()];
  return users.map((userId) => {
    const entries = byUser.get(userId)!;
    const times = entries.map((entry) => entry.label.activeMs).sort((a, b) => a - b);
    const middle = Math.floor(times.length / 2);
    const median =
      times.length === 0 ? null : times.length % 2 ? times[middle] : (times[middle - 1] + times[middle]) / 2;
    const resolved = entries.filter((entry) => entry.item.final.valid !== null);
    const days = new Set(entries.map((entry) => entry.label.updatedAt.toISOString().slice(0, 10)));
    const pairwiseKappa: Record<string, number | null> = {};
    for (const other of users) {
      if (other === userId) continue;
      const pairs = entries.flatMap(({ label, item }) => {
        const theirs = item.labels.find((candidate) => candidate.userId === other);
        return theirs ? [[label.valid, theirs.valid] as [boolean, boolean]] : [];
      });
      if (pairs.length) pairwiseKappa[other] = cohensKappa(pairs);
    }
    return {
      userId,
      items: entries.length,
      medianActiveMs: median,
      meanActiveMs: times.length ? times.reduce((sum, t) => sum + t, 0) / times.length : null,
      fastDecisions: times.filter((t) => t < FAST_DECISION_MS).length,
      itemsPerDay: days.size ? entries.length / days.size : null,
      agreementWithFinal: resolved.length
        ? resolved.filter((entry) => entry.label.valid === entry.item.final.valid).length / resolved.length
        : null,
      pairwiseKappa,
    };
  });
}

// The same figures from counts, as the data layer computes them in SQL: how many items had each
// split of labels, 2×2 confusion counts, and per annotator sums. Equal to the item-based functions
// above (campaign-agreement.test.ts), with no array per item.

/** How many items had `nValid` Valid and `nInvalid` Invalid labels. */
export type LabelSplit = { nValid: number; nInvalid: number; items: number };

/** Cohen's κ from a 2×2 table: `cohensKappa` over the pairs the table counts (the same integer arithmetic). */
export function kappaFromConfusion(table: Confusion2x2): number | null {
  const { n } = table;
  if (n === 0) return null;
  const firstTrue = table.bothTrue + table.firstTrueSecondFalse;
  const secondTrue = table.bothTrue + table.firstFalseSecondTrue;
  const agreements = table.bothTrue + table.bothFalse;
  const expectedScaled = firstTrue * secondTrue + (n - firstTrue) * (n - secondTrue);
  const nSquared = n * n;
  if (expectedScaled === nSquared) return null;
  return (agreements * n - expectedScaled) / (nSquared - expectedScaled);
}

/**
 * `humanAgreement` from the splits of items with at least two labels (smaller ones are ignored) and,
 * when exactly two people labelled them, the 2×2 table of their labels on the items both labelled.
 */
export function humanAgreementFromSplits(splits: LabelSplit[], twoRaters: Confusion2x2 | null): AgreementFigures {
  const multi = splits.filter((split) => split.nValid + split.nInvalid >= 2 && split.items > 0);
  let items = 0;
  let agreementSum = 0;
  let pairable = 0;
  let observedAgreement = 0;
  let valid = 0;
  let invalid = 0;
  const sizes = new Map<number, number>();
  for (const { nValid, nInvalid, items: count } of multi) {
    const m = nValid + nInvalid;
    const agreeing = nValid * (nValid - 1) + nInvalid * (nInvalid - 1);
    items += count;
    agreementSum += (count * agreeing) / (m * (m - 1));
    pairable += count * m;
    observedAgreement += (count * agreeing) / (m - 1);
    valid += count * nValid;
    invalid += count * nInvalid;
    sizes.set(m, (sizes.get(m) ?? 0) + count);
  }
  const commonSize = [...sizes.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0];
  const expectedDisagreement = pairable * pairable - (valid * valid + invalid * invalid);
  return {
    items,
    percentAgreement: items ? agreementSum / items : null,
    fleissKappa:
      commonSize === undefined
        ? null
        : fleissFromSplits(multi.filter((split) => split.nValid + split.nInvalid === commonSize)),
    krippendorffAlpha:
      pairable < 2 || expectedDisagreement === 0
        ? null
        : 1 - ((pairable - 1) * (pairable - observedAgreement)) / expectedDisagreement,
    cohensKappa: twoRaters ? kappaFromConfusion(twoRaters) : null,
  };
}

/** Fleiss' κ over splits that all have the same number of labels. */
function fleissFromSplits(splits: LabelSplit[]): number | null {
  let itemCount = 0;
  let sumPi = 0;
  let valid = 0;
  let invalid = 0;
  for (const { nValid, nInvalid, items } of splits) {
    const n = nValid + nInvalid;
    itemCount += items;
    sumPi += (items * (nValid * nValid + nInvalid * nInvalid - n)) / (n * (n - 1));
    valid += items * nValid;
    invalid += items * nInvalid;
  }
  if (itemCount === 0 || valid === 0 || invalid === 0) return null;
  const all = valid + invalid;
  const pe = (valid / all) ** 2 + (invalid / all) ** 2;
  return (sumPi / itemCount - pe) / (1 - pe);
}

/** The humans' final label against a reference, from the 2×2 table (final first, reference second). */
function againstFromConfusion(table: Confusion2x2) {
  return {
    items: table.n,
    kappa: kappaFromConfusion(table),
    confusion: {
      bothValid: table.bothTrue,
      bothInvalid: table.bothFalse,
      humanValid: table.firstTrueSecondFalse,
      humanInvalid: table.firstFalseSecondTrue,
    },
  };
}

/** `humanVsCritic` from its 2×2 table. */
export function humanVsCriticFromConfusion(table: Confusion2x2): HumanVsCritic {
  const { confusion, ...figures } = againstFromConfusion(table);
  return {
    ...figures,
    confusion: {
      bothValid: confusion.bothValid,
      bothInvalid: confusion.bothInvalid,
      humanValidCriticInvalid: confusion.humanValid,
      humanInvalidCriticValid: confusion.humanInvalid,
    },
  };
}

/** `humanVsExecution` from its 2×2 table and the resolved items that did not run. */
export function humanVsExecutionFromConfusion(table: Confusion2x2, notRun: number): HumanVsExecution {
  const { confusion, ...figures } = againstFromConfusion(table);
  return {
    ...figures,
    notRun,
    confusion: {
      bothValid: confusion.bothValid,
      bothInvalid: confusion.bothInvalid,
      humanValidExecutionInvalid: confusion.humanValid,
      humanInvalidExecutionValid: confusion.humanInvalid,
    },
  };
}

/** One annotator's sums, as SQL gives them. */
export type AnnotatorSums = {
  userId: string;
  items: number;
  medianActiveMs: number | null;
  totalActiveMs: number;
  fastDecisions: number;
  days: number;
  resolved: number;
  agreeingWithFinal: number;
};

/** Two annotators' labels on the items both labelled, as a 2×2 table (`first` first). */
export type PairTable = { first: string; second: string; table: Confusion2x2 };

/** `annotatorStatistics` from per annotator sums and the 2×2 table of each pair of annotators. */
export function annotatorStatisticsFromSums(sums: AnnotatorSums[], pairs: PairTable[]): AnnotatorStats[] {
  const kappas = new Map<string, Record<string, number | null>>();
  for (const { first, second, table } of pairs) {
    const kappa = kappaFromConfusion(table);
    (kappas.get(first) ?? kappas.set(first, {}).get(first)!)[second] = kappa;
    (kappas.get(second) ?? kappas.set(second, {}).get(second)!)[first] = kappa;
  }
  return sums.map((sum) => ({
    userId: sum.userId,
    items: sum.items,
    medianActiveMs: sum.items ? sum.medianActiveMs : null,
    meanActiveMs: sum.items ? sum.totalActiveMs / sum.items : null,
    fastDecisions: sum.fastDecisions,
    itemsPerDay: sum.days ? sum.items / sum.days : null,
    agreementWithFinal: sum.resolved ? sum.agreeingWithFinal / sum.resolved : null,
    pairwiseKappa: kappas.get(sum.userId) ?? {},
  }));
}

/** Adds 2×2 tables cell by cell. */
export function addConfusion(tables: Confusion2x2[]): Confusion2x2 {
  const sum: Confusion2x2 = { bothTrue: 0, bothFalse: 0, firstTrueSecondFalse: 0, firstFalseSecondTrue: 0, n: 0 };
  for (const table of tables) {
    sum.bothTrue += table.bothTrue;
    sum.bothFalse += table.bothFalse;
    sum.firstTrueSecondFalse += table.firstTrueSecondFalse;
    sum.firstFalseSecondTrue += table.firstFalseSecondTrue;
    sum.n += table.n;
  }
  return sum;
}
