import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inverseNormal, wilsonInterval } from "./intervals";

describe("inverseNormal", () => {
  // Reference quantiles of the standard normal distribution (e.g. Abramowitz & Stegun 1964, Table 26.5,
  // and any statistical table): Φ⁻¹(.975) = 1.959964, Φ⁻¹(.995) = 2.575829, Φ⁻¹(.95) = 1.644854,
  // Φ⁻¹(.99) = 2.326348, Φ⁻¹(Φ(1) = .8413447461) = 1, Φ⁻¹(1e-6) = −4.753424.
  it.each([
    [0.975, 1.959964],
    [0.995, 2.575829],
    [0.95, 1.644854],
    [0.99, 2.326348],
    [0.8413447461, 1],
    [1e-6, -4.753424],
    [0.5, 0],
  ])("Φ⁻¹(%f) = %f to 1e-6", (p, z) => {
    expect(Math.abs(inverseNormal(p) - z)).toBeLessThan(1e-6);
  });

  it("is odd about 1/2 and increasing", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 0.5, noNaN: true }), (p) => {
        expect(inverseNormal(1 - p)).toBeCloseTo(-inverseNormal(p), 6);
        expect(inverseNormal(p)).toBeLessThanOrEqual(inverseNormal(Math.min(0.999, p + 0.001)));
      }),
    );
  });

  it("rejects p outside (0, 1)", () => {
    for (const p of [0, 1, -0.1, 1.1, Number.NaN]) expect(() => inverseNormal(p)).toThrow(RangeError);
  });
});

describe("wilsonInterval", () => {
  // Newcombe, R. G. (1998) "Two-sided confidence intervals for the single proportion: comparison of
  // seven methods", Statistics in Medicine 17:857–872, Table I, method 3 (Wilson score interval without
  // continuity correction, Wilson 1927), 95%: 81/263 → .2553–.3662, 15/148 → .0624–.1605,
  // 0/20 → 0–.1611, 1/29 → .0061–.1718.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])("reproduces Newcombe (1998) Table I: %i/%i → [%f, %f]", (successes, trials, lower, upper) => {
    const interval = wilsonInterval(successes, trials);
    expect(interval).not.toBeNull();
    expect(interval![0]).toBeCloseTo(lower, 4);
    expect(interval![1]).toBeCloseTo(upper, 4);
  });

  it("is null for zero trials", () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(wilsonInterval(0, 0, 0.99)).toBeNull();
  });

  it("pins the bound at exactly 0 for no successes and exactly 1 for all successes", () => {
    expect(wilsonInterval(0, 7)![0]).toBe(0);
    expect(wilsonInterval(7, 7)![1]).toBe(1);
    expect(wilsonInterval(0, 1)).toEqual([0, expect.closeTo(1.959964 ** 2 / (1 + 1.959964 ** 2), 6)]);
  });

  it("uses the requested confidence level", () => {
    // 99% Wilson for 81/263 worked from the closed form with z = 2.575829.
    const z = 2.575829;
    const n = 263;
    const p = 81 / n;
    const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
    const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
    const [lower, upper] = wilsonInterval(81, 263, 0.99)!;
    expect(lower).toBeCloseTo(centre - half, 6);
    expect(upper).toBeCloseTo(centre + half, 6);
  });

  it("rejects impossible counts and confidence levels", () => {
    expect(() => wilsonInterval(-1, 5)).toThrow(RangeError);
    expect(() => wilsonInterval(6, 5)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 5)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 5, 1)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 5, 0)).toThrow(RangeError);
  });

  const counts = fc
    .integer({ min: 1, max: 5000 })
    .chain((trials) => fc.tuple(fc.integer({ min: 0, max: trials }), fc.constant(trials)));
  const level = fc.double({ min: 0.5, max: 0.999, noNaN: true });

  it("lies within [0, 1], contains the observed proportion, and mirrors under successes ↔ failures", () => {
    fc.assert(
      fc.property(counts, level, ([successes, trials], confidence) => {
        const [lower, upper] = wilsonInterval(successes, trials, confidence)!;
        const p = successes / trials;
        expect(lower).toBeGreaterThanOrEqual(0);
        expect(upper).toBeLessThanOrEqual(1);
        expect(lower).toBeLessThanOrEqual(p + 1e-12);
        expect(upper).toBeGreaterThanOrEqual(p - 1e-12);
        const [mirrorLower, mirrorUpper] = wilsonInterval(trials - successes, trials, confidence)!;
        expect(mirrorLower).toBeCloseTo(1 - upper, 12);
        expect(mirrorUpper).toBeCloseTo(1 - lower, 12);
      }),
    );
  });

  it("widens with the confidence level", () => {
    fc.assert(
      fc.property(counts, ([successes, trials]) => {
        const [lower95, upper95] = wilsonInterval(successes, trials, 0.95)!;
        const [lower99, upper99] = wilsonInterval(successes, trials, 0.99)!;
        expect(lower99).toBeLessThanOrEqual(lower95);
        expect(upper99).toBeGreaterThanOrEqual(upper95);
      }),
    );
  });
});
