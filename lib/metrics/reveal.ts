// Blind-mode analysis: how the critic's reveal moved annotators' verdicts. Pure: the data layer loads.
import { cohensKappa } from "./agreement";

/** One blind label: the verdict given before the critic was shown, the verdict that stands now, and the critic's. */
export type BlindLabel = {
  userId: string;
  language: string;
  before: boolean;
  after: boolean;
  criticPass: boolean | null;
};

export type RevealFigures = {
  /** Blind labels with a pre-reveal verdict. */
  labels: number;
  /** Labels whose verdict changed after the reveal. */
  flipped: number;
  flipRate: number | null;
  /** Flips that moved onto the critic's verdict. */
  flippedTowardCritic: number;
  /** Labels on records with a critic verdict: the base of the four figures below. */
  withCritic: number;
  agreementBefore: number | null;
  agreementAfter: number | null;
  kappaBefore: number | null;
  kappaAfter: number | null;
};

/** Flip rate and agreement with the critic before and after the reveal; a figure with no base is null. */
export function revealFigures(labels: BlindLabel[]): RevealFigures {
  const flips = labels.filter((label) => label.before !== label.after);
  const judged = labels.flatMap((label) =>
    label.criticPass === null ? [] : [{ ...label, criticPass: label.criticPass }],
  );
  const share = (count: number, of: number) => (of === 0 ? null : count / of);
  return {
    labels: labels.length,
    flipped: flips.length,
    flipRate: share(flips.length, labels.length),
    flippedTowardCritic: flips.filter((label) => label.after === label.criticPass).length,
    withCritic: judged.length,
    agreementBefore: share(judged.filter((label) => label.before === label.criticPass).length, judged.length),
    agreementAfter: share(judged.filter((label) => label.after === label.criticPass).length, judged.length),
    kappaBefore: cohensKappa(judged.map((label) => [label.before, label.criticPass])),
    kappaAfter: cohensKappa(judged.map((label) => [label.after, label.criticPass])),
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
