// Confidence intervals for proportions.

// Rational approximations for the inverse normal CDF (Acklam 2003, "An algorithm for computing the
// inverse normal cumulative distribution function"): relative error below 1.15e-9 on (0, 1).
const CENTRAL_NUMERATOR = [
  -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1,
  2.506628277459239,
];
const CENTRAL_DENOMINATOR = [
  -5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1,
];
const TAIL_NUMERATOR = [
  -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968,
  2.938163982698783,
];
const TAIL_DENOMINATOR = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
const TAIL_BREAK = 0.02425;

/** Evaluates a polynomial given highest-degree-first coefficients (Horner's rule). */
function horner(coefficients: readonly number[], x: number): number {
  return coefficients.reduce((acc, c) => acc * x + c, 0);
}

/** Standard normal quantile Φ⁻¹(p) by Acklam's algorithm (|relative error| < 1.2e-9); throws RangeError unless 0 < p < 1. */
export function inverseNormal(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`inverseNormal needs 0 < p < 1, got ${p}`);
  if (p < TAIL_BREAK) {
    const q = Math.sqrt(-2 * Math.log(p));
    return horner(TAIL_NUMERATOR, q) / (horner(TAIL_DENOMINATOR, q) * q + 1);
  }
  if (p > 1 - TAIL_BREAK) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return -horner(TAIL_NUMERATOR, q) / (horner(TAIL_DENOMINATOR, q) * q + 1);
  }
  const q = p - 0.5;
  const r = q * q;
  return (horner(CENTRAL_NUMERATOR, r) * q) / (horner(CENTRAL_DENOMINATOR, r) * r + 1);
}

/**
 * Wilson (1927) score interval for a binomial proportion, without continuity correction, as [lower, upper].
 * Null when trials = 0; throws RangeError unless counts are integers with 0 ≤ successes ≤ trials and 0 < confidence < 1.
 */
export function wilsonInterval(successes: number, trials: number, confidence = 0.95): [number, number] | null {
  if (!Number.isInteger(successes) || !Number.isInteger(trials) || successes < 0 || successes > trials) {
    throw new RangeError(`wilsonInterval needs integers 0 ≤ successes ≤ trials, got ${successes}/${trials}`);
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`wilsonInterval needs 0 < confidence < 1, got ${confidence}`);
  }
  if (trials === 0) return null;

  const z = inverseNormal(1 - (1 - confidence) / 2);
  const z2 = z * z;
  const failures = trials - successes;
  // (2r + z² ± z·√(z² + 4r(n−r)/n)) / (2(n + z²)), Newcombe 1998 method 3.
  const centre = 2 * successes + z2;
  const spread = z * Math.sqrt(z2 + (4 * successes * failures) / trials);
  const denominator = 2 * (trials + z2);
  // At r = 0 or r = n the bound is exactly 0 or 1; set it so rounding cannot leave it a hair outside.
  const lower = successes === 0 ? 0 : Math.max(0, (centre - spread) / denominator);
  const upper = failures === 0 ? 1 : Math.min(1, (centre + spread) / denominator);
  return [lower, upper];
}
