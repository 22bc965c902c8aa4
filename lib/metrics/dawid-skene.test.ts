// Dawid–Skene: the expected values below are computed by hand from the model's definition (Bayes'
// rule and smoothed counts), or are the parameters synthetic labels were drawn from — never taken
// from the code under test.
import { describe, expect, it } from "vitest";

import { fitDawidSkene, type LabelMatrix, posteriorValid, validityWithInterval } from "./dawid-skene";

/** A label matrix from readable rows: [item, rater, "valid" | "invalid"]. */
function matrix(rows: [number, number, "valid" | "invalid"][], known: (0 | 1 | -1)[], raterCount: number): LabelMatrix {
  return {
    itemCount: known.length,
    raterCount,
    labelItem: Int32Array.from(rows.map(([item]) => item)),
    labelRater: Int32Array.from(rows.map(([, rater]) => rater)),
    labelValid: Uint8Array.from(rows.map(([, , verdict]) => (verdict === "valid" ? 1 : 0))),
    known: Int8Array.from(known),
  };
}

describe("posteriorValid (the E-step)", () => {
  it("is Bayes' rule over the raters' confusions", () => {
    // Prior 0.5; A (sensitivity 0.9, specificity 0.8) says valid, B (0.6, 0.7) says invalid:
    // 0.5·0.8·0.3 / (0.5·0.8·0.3 + 0.5·0.1·0.6) = 0.12 / 0.15 = 0.8.
    const a = { sensitivity: 0.9, specificity: 0.8, n: 1 };
    const b = { sensitivity: 0.6, specificity: 0.7, n: 1 };
    expect(
      posteriorValid(0.5, [
        { rater: a, valid: true },
        { rater: b, valid: false },
      ]),
    ).toBeCloseTo(0.8, 12);
    // Prior 0.9 and no labels: the prior itself.
    expect(posteriorValid(0.9, [])).toBeCloseTo(0.9, 12);
  });
});

describe("fitDawidSkene", () => {
  // Rater 0 on ten gold items: of 4 invalid ones it calls 3 invalid, of 6 valid ones it calls 5 valid.
  const goldOnly = matrix(
    [
      [0, 0, "invalid"],
      [1, 0, "invalid"],
      [2, 0, "invalid"],
      [3, 0, "valid"],
      [4, 0, "valid"],
      [5, 0, "valid"],
      [6, 0, "valid"],
      [7, 0, "valid"],
      [8, 0, "valid"],
      [9, 0, "invalid"],
    ],
    [0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
    1,
  );

  it("measures a rater on gold answers held fixed: smoothed counts of its 2×2 confusion", () => {
    const fit = fitDawidSkene(goldOnly, "two-coin");
    // (3 + 0.5) / (4 + 1) and (5 + 0.5) / (6 + 1).
    expect(fit.raters[0].sensitivity).toBeCloseTo(0.7, 12);
    expect(fit.raters[0].specificity).toBeCloseTo(5.5 / 7, 12);
    expect(fit.raters[0].n).toBe(10);
    expect(Array.from(fit.pValid)).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    expect(fit.converged).toBe(true);
  });

  it("gives one accuracy per rater in the one-coin model", () => {
    const fit = fitDawidSkene(goldOnly, "one-coin");
    // (3 + 5 + 0.5) / (10 + 1).
    expect(fit.raters[0].sensitivity).toBeCloseTo(8.5 / 11, 12);
    expect(fit.raters[0].specificity).toBeCloseTo(8.5 / 11, 12);
  });

  it("trusts the rater gold showed reliable over two who are not, where majority voting would not", () => {
    // Gold items 0–9: rater 0 always right; raters 1 and 2 always say the opposite of the truth.
    const rows: [number, number, "valid" | "invalid"][] = [];
    const known: (0 | 1 | -1)[] = [];
    for (let item = 0; item < 10; item++) {
      const truth = item % 2 === 0 ? "valid" : "invalid";
      const wrong = truth === "valid" ? "invalid" : "valid";
      rows.push([item, 0, truth], [item, 1, wrong], [item, 2, wrong]);
      known.push(truth === "valid" ? 1 : 0);
    }
    // Item 10 is unknown: rater 0 says valid, raters 1 and 2 say invalid (the majority).
    rows.push([10, 0, "valid"], [10, 1, "invalid"], [10, 2, "invalid"]);
    known.push(-1);
    const fit = fitDawidSkene(matrix(rows, known, 3));
    expect(fit.pValid[10]).toBeGreaterThan(0.99);
  });

  it("recovers the reliabilities and the prior that synthetic labels were drawn from", () => {
    const truth = [
      { sensitivity: 0.9, specificity: 0.95 },
      { sensitivity: 0.7, specificity: 0.9 },
      { sensitivity: 0.6, specificity: 0.6 },
      { sensitivity: 0.95, specificity: 0.7 },
      { sensitivity: 0.8, specificity: 0.85 },
    ];
    // xorshift32: a fixed stream of draws, independent of the code under test.
    let state = 2_463_534_242;
    const random = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) / 4_294_967_296;
    };
    const rows: [number, number, "valid" | "invalid"][] = [];
    const items = 6000;
    let validItems = 0;
    for (let item = 0; item < items; item++) {
      const isValid = random() < 0.8;
      if (isValid) validItems++;
      const raters = new Set<number>();
      while (raters.size < 3) raters.add(Math.floor(random() * truth.length));
      for (const rater of raters) {
        const { sensitivity, specificity } = truth[rater];
        const saysValid = isValid ? random() < specificity : random() >= sensitivity;
        rows.push([item, rater, saysValid ? "valid" : "invalid"]);
      }
    }
    const fit = fitDawidSkene(matrix(rows, new Array(items).fill(-1), truth.length));
    expect(fit.converged).toBe(true);
    expect(fit.prior).toBeCloseTo(validItems / items, 1);
    for (const [rater, expected] of truth.entries()) {
      expect(Math.abs(fit.raters[rater].sensitivity - expected.sensitivity), `rater ${rater}`).toBeLessThan(0.05);
      expect(Math.abs(fit.raters[rater].specificity - expected.specificity), `rater ${rater}`).toBeLessThan(0.05);
    }
  });

  it("is deterministic", () => {
    const rows: [number, number, "valid" | "invalid"][] = [
      [0, 0, "valid"],
      [0, 1, "invalid"],
      [1, 0, "valid"],
      [1, 1, "valid"],
      [2, 1, "invalid"],
    ];
    const first = fitDawidSkene(matrix(rows, [-1, -1, -1], 2));
    const second = fitDawidSkene(matrix(rows, [-1, -1, -1], 2));
    expect(Array.from(second.pValid)).toEqual(Array.from(first.pValid));
    expect(second.raters).toEqual(first.raters);
  });
});

describe("validityWithInterval", () => {
  it("is the mean P(valid) with a bootstrap interval around it, the same for the same seed", () => {
    const pValid = Float64Array.from([1, 1, 1, 0, 0.5, 1, 1, 0, 1, 1]);
    const items = [...pValid.keys()];
    const estimate = validityWithInterval(pValid, items)!;
    expect(estimate.validity).toBeCloseTo(7.5 / 10, 12);
    expect(estimate.n).toBe(10);
    expect(estimate.interval![0]).toBeLessThan(0.75);
    expect(estimate.interval![1]).toBeGreaterThan(0.75);
    expect(validityWithInterval(pValid, items)).toEqual(estimate);
    expect(validityWithInterval(Float64Array.from([1, 1, 1, 1, 1]), [0, 1, 2, 3, 4])!.interval).toEqual([1, 1]);
    expect(validityWithInterval(pValid, [])).toBeNull();
  });

  it("gives no interval over fewer than five items: too few to estimate, not 99.9% [99.9–99.9]", () => {
    const pValid = Float64Array.from([0.999, 0.2, 0.9, 1]);
    expect(validityWithInterval(pValid, [0])).toEqual({ validity: 0.999, interval: null, n: 1 });
    expect(validityWithInterval(pValid, [0, 1, 2, 3])!.interval).toBeNull();
  });

  it("above a thousand items, gives the bootstrap's normal limit: mean ± 1.96·s/√n", () => {
    // 1,500 items, a third of them 0 and two thirds 1: mean 2/3, s = √(2/9), s/√n = √(2/9) / √1500.
    const pValid = Float64Array.from({ length: 1500 }, (_, i) => (i % 3 === 0 ? 0 : 1));
    const estimate = validityWithInterval(pValid, [...pValid.keys()])!;
    const spread = 1.959964 * Math.sqrt(2 / 9 / 1500);
    expect(estimate.validity).toBeCloseTo(2 / 3, 12);
    expect(estimate.interval![0]).toBeCloseTo(2 / 3 - spread, 5);
    expect(estimate.interval![1]).toBeCloseTo(2 / 3 + spread, 5);
  });
});
