import { describe, expect, it } from "vitest";

import { type BlindLabel, revealAnalysis, revealFigures } from "./reveal";

const label = (
  userId: string,
  language: string,
  before: boolean,
  after: boolean,
  signal: boolean | null,
): BlindLabel => ({ userId, language, before, after, signal });

// Six labels by one annotator, figures worked out by hand below.
const ann = [
  label("ann", "python", true, true, true), //    kept, agrees with the critic throughout
  label("ann", "python", true, false, false), //  flipped onto the critic
  label("ann", "python", false, false, true), //  kept, disagrees throughout
  label("ann", "python", false, true, true), //   flipped onto the critic
  label("ann", "python", true, true, null), //    no critic verdict: counts for flips only
  label("ann", "python", true, false, true), //   flipped away from the critic
];

describe("revealFigures", () => {
  it("counts flips and agreement with the critic before and after the reveal", () => {
    const figures = revealFigures(ann);
    expect(figures).toMatchObject({
      labels: 6,
      flipped: 3,
      flipRate: 0.5,
      flippedTowardSignal: 2,
      withSignal: 5,
      agreementBefore: 2 / 5,
      agreementAfter: 3 / 5,
    });
    // Before: pairs (T,T) (T,F) (F,T) (F,T) (T,T). p_o = 2/5; marginals 3T 2F vs 4T 1F, p_e = (3·4 + 2·1)/25 = 14/25.
    // κ = (10/25 − 14/25) / (1 − 14/25) = −4/11.
    expect(figures.kappaBefore).toBeCloseTo(-4 / 11, 10);
    // After: pairs (T,T) (F,F) (F,T) (T,T) (F,T). p_o = 3/5; marginals 2T 3F vs 4T 1F, p_e = (2·4 + 3·1)/25 = 11/25.
    // κ = (15/25 − 11/25) / (14/25) = 2/7.
    expect(figures.kappaAfter).toBeCloseTo(2 / 7, 10);
  });

  it("is null, not zero, where there is nothing to divide by", () => {
    expect(revealFigures([])).toEqual({
      labels: 0,
      flipped: 0,
      flipRate: null,
      flippedTowardSignal: 0,
      withSignal: 0,
      agreementBefore: null,
      agreementAfter: null,
      kappaBefore: null,
      kappaAfter: null,
    });
    // Without critic verdicts the flip rate exists but agreement with the critic does not.
    expect(revealFigures([label("a", "go", true, false, null)])).toMatchObject({
      flipRate: 1,
      withSignal: 0,
      agreementBefore: null,
      kappaAfter: null,
    });
    // One label agreeing with the critic: agreement is 1, but κ is undefined (expected agreement is 1).
    expect(revealFigures([label("a", "go", true, true, true)])).toMatchObject({
      agreementBefore: 1,
      agreementAfter: 1,
      kappaBefore: null,
      kappaAfter: null,
    });
  });
});

describe("revealAnalysis", () => {
  it("splits per language and per annotator and language", () => {
    const bob = [label("bob", "cpp", true, true, true), label("bob", "python", false, true, true)];
    const analysis = revealAnalysis([...bob, ...ann]);
    expect(analysis.overall).toMatchObject({
      labels: 8,
      flipped: 4,
      flipRate: 0.5,
      flippedTowardSignal: 3,
      withSignal: 7,
    });
    expect(Object.keys(analysis.byLanguage)).toEqual(["cpp", "python"]);
    expect(analysis.byLanguage.python).toMatchObject({
      labels: 7,
      flipped: 4,
      agreementBefore: 2 / 6,
      agreementAfter: 4 / 6,
    });
    expect(analysis.byAnnotator.map((row) => [row.userId, row.language, row.flipped])).toEqual([
      ["ann", "python", 3],
      ["bob", "cpp", 0],
      ["bob", "python", 1],
    ]);
    expect(analysis.byAnnotator[0]).toEqual({ userId: "ann", language: "python", ...revealFigures(ann) });
  });
});
