// Critic calibration figures against values worked out by hand (the arithmetic is in the comments).
import { describe, expect, it } from "vitest";

import {
  compareCriticVersions,
  confidenceBin,
  detectionFigures,
  mostWrongRule,
  reliability,
} from "./critic-calibration";

describe("detectionFigures", () => {
  // 8 flagged and invalid, 2 flagged but valid, 4 missed, 6 rightly passed: n = 20.
  const figures = detectionFigures({ truePositives: 8, falsePositives: 2, falseNegatives: 4, trueNegatives: 6 });

  it("gives precision, recall, F1, accuracy and κ of a 2×2 table", () => {
    expect(figures.n).toBe(20);
    expect(figures.precision.value).toBe(0.8); // 8 / 10
    expect(figures.recall.value).toBeCloseTo(2 / 3, 12); // 8 / 12
    expect(figures.f1).toBeCloseTo(8 / 11, 12); // 2·0.8·(2/3) / (0.8 + 2/3) = (16/15) / (22/15)
    expect(figures.accuracy.value).toBe(0.7); // 14 / 20
    // p_o = 0.7; the critic says invalid 10/20, people 12/20: p_e = 0.5·0.6 + 0.5·0.4 = 0.5; κ = 0.2 / 0.5.
    expect(figures.kappa).toBeCloseTo(0.4, 12);
  });

  it("puts 95% Wilson intervals on the proportions", () => {
    // 8/10: centre (0.8 + z²/20) / (1 + z²/10) = 0.716740, half-width z·√(0.016 + z²/400) / (1 + z²/10) = 0.226578.
    expect(figures.precision.interval![0]).toBeCloseTo(0.490162, 5);
    expect(figures.precision.interval![1]).toBeCloseTo(0.943318, 5);
    expect(figures.precision).toMatchObject({ successes: 8, trials: 10 });
    expect(figures.accuracy).toMatchObject({ successes: 14, trials: 20 });
  });

  it("leaves undefined figures null instead of dividing by zero", () => {
    const none = detectionFigures({ truePositives: 0, falsePositives: 0, falseNegatives: 3, trueNegatives: 5 });
    expect(none.precision).toMatchObject({ value: null, interval: null, trials: 0 });
    expect(none.recall.value).toBe(0);
    expect(none.f1).toBeNull();
    // The critic never says invalid: no variation on its side, κ = (p_o − p_e)/(1 − p_e) with p_o = p_e = 5/8 → 0.
    expect(none.kappa).toBe(0);
    expect(
      detectionFigures({ truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0 }),
    ).toMatchObject({
      n: 0,
      kappa: null,
      accuracy: { value: null },
    });
  });
});

describe("reliability", () => {
  it("bins confidences by tenths and 1 into the last bin", () => {
    expect([0, 0.09, 0.1, 0.55, 0.95, 1].map((c) => confidenceBin(c, 10))).toEqual([0, 0, 1, 5, 9, 9]);
  });

  it("gives the curve and the expected calibration error", () => {
    // Bin 9: four verdicts at 0.95, three right (gap 0.2); bin 5: two at 0.55, one right (gap 0.05).
    // ECE = 4/6 · 0.2 + 2/6 · 0.05 = 0.15.
    const result = reliability(
      [
        { bin: 9, n: 4, confidenceSum: 3.8, correct: 3 },
        { bin: 5, n: 2, confidenceSum: 1.1, correct: 1 },
        { bin: 2, n: 0, confidenceSum: 0, correct: 0 },
      ],
      10,
    );
    expect(result.n).toBe(6);
    expect(result.ece).toBeCloseTo(0.15, 12);
    expect(result.points.map((p) => [p.bin, p.lower, p.upper, p.n, p.accuracy])).toEqual([
      [5, 0.5, 0.6, 2, 0.5],
      [9, 0.9, 1, 4, 0.75],
    ]);
    expect(result.points[1].meanConfidence).toBeCloseTo(0.95, 12);
    expect(reliability([], 10)).toEqual({ points: [], ece: null, n: 0 });
  });
});

describe("mostWrongRule", () => {
  const counts = (falsePositives: number, falseNegatives: number) => ({
    truePositives: 5,
    trueNegatives: 5,
    falsePositives,
    falseNegatives,
  });

  it("picks the rule with the most false positives plus false negatives, the first name on a tie", () => {
    const worst = mostWrongRule([
      { rule: "Randomness/Non-reproducible", ...counts(1, 2) },
      { rule: "Exception Swallowing", ...counts(3, 0) },
      { rule: "Other Issues", ...counts(0, 0) },
    ]);
    expect(worst).toMatchObject({ rule: "Exception Swallowing", wrong: 3 });
    expect(mostWrongRule([{ rule: "Other Issues", ...counts(0, 0) }])).toBeNull();
  });

  it("blames no rule where only one rule had verdicts to compare: a ranking of one is no ranking", () => {
    const unused = {
      rule: "Exception Swallowing",
      truePositives: 0,
      trueNegatives: 0,
      falsePositives: 0,
      falseNegatives: 0,
    };
    expect(mostWrongRule([{ rule: "Other Issues", ...counts(2, 3) }])).toBeNull();
    expect(mostWrongRule([{ rule: "Other Issues", ...counts(2, 3) }, unused])).toBeNull();
  });
});

describe("compareCriticVersions", () => {
  it("ranks higher κ first, then F1, with undefined κ last", () => {
    const good = detectionFigures({ truePositives: 9, falsePositives: 1, falseNegatives: 1, trueNegatives: 9 });
    const poor = detectionFigures({ truePositives: 5, falsePositives: 5, falseNegatives: 5, trueNegatives: 5 });
    const empty = detectionFigures({ truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0 });
    expect([empty, poor, good].sort(compareCriticVersions)).toEqual([good, poor, empty]);
  });
});
