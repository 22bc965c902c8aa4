// Blind-mode analysis: how revealing what a campaign hid before the first label (the critic; under
// "nothing" also the execution) moved annotators' verdicts. Pure: the data layer loads.
import { cohensKappa } from "./agreement";

/**
 * One blind label: the verdict given before the hidden signal was shown, the verdict that stands
 * now, and the signal's verdict on the record ("valid": the critic passes it, or its tests pass).
 */
export type BlindLabel = {
  userId: string;
  language: string;
  before: boolean;
  after: boolean;
  signal: boolean | null;
};

export type RevealFigures = {
  /** Blind labels with a pre-reveal verdict. */
  labels: number;
  /** Labels whose verdict changed after the reveal. */
  flipped: number;
  flipRate: number | null;
  /** Flips that moved onto the signal's verdict. */
  flippedTowardSignal: number;
  /** Labels on records the signal has a verdict on: the base of the four figures below. */
  withSignal: number;
  agreementBefore: number | null;
  agreementAfter: number | null;
  kappaBefore: number | null;
  kappaAfter: number | null;
};

/** Flip rate and agreement with the signal before and after the reveal; a figure with no base is null. */
export function revealFigures(labels: BlindLabel[]): RevealFigures {
  const flips = labels.filter((label) => label.before !== label.after);
  const judged = labels.flatMap((label) => (label.signal === null ? [] : [{ ...label, signal: label.signal }]));
  const share = (count: number, of: number) => (of === 0 ? null : count / of);
  return {
    labels: labels.length,
    flipped: flips.length,
    flipRate: share(flips.length, labels.length),
    flippedTowardSignal: flips.filter((label) => label.after === label.signal).length,
    withSignal: judged.length,
    agreementBefore: share(judged.filter((label) => label.before === label.signal).length, judged.length),
    agreementAfter: share(judged.filter((label) => label.after === label.signal).length, judged.length),
    kappaBefore: cohensKappa(judged.map((label) => [label.before, label.signal])),
    kappaAfter: cohensKappa(judged.map((label) => [label.after, label.signal])),
  };
}

export type RevealAnalysis = {
  overall: RevealFigures;
  byLanguage: Record<string, RevealFigures>;
  byAnnotator: ({ userId: string; language: string } & RevealFigures)[];
};

/** The reveal figures overall, per language, and per annotator and language (sorted by annotator, then language). */
export function revealAnalysis(labels: BlindLabel[]): RevealAnalysis {
  const languages = [...new Set(labels.map((label) => label.language))].sort();
  const pairs = [...new Set(labels.map((label) => JSON.stringify([label.userId, label.language])))]
    .map((key) => JSON.parse(key) as [string, string])
    .sort(([userA, langA], [userB, langB]) => userA.localeCompare(userB) || langA.localeCompare(langB));
  return {
    overall: revealFigures(labels),
    byLanguage: Object.fromEntries(
      languages.map((language) => [language, revealFigures(labels.filter((label) => label.language === language))]),
    ),
    byAnnotator: pairs.map(([userId, language]) => ({
      userId,
      language,
      ...revealFigures(labels.filter((label) => label.userId === userId && label.language === language)),
    })),
  };
}
