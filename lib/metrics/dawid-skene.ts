// Dawid–Skene (1979) estimation for two classes, valid and invalid: each item's probability of
// being valid and each rater's reliability, learnt together by expectation–maximisation from who
// said what, with known (gold) answers held fixed. "Positive" is invalid, as in the report's
// critic and signal tables: a rater's sensitivity is P(says invalid | invalid), its specificity
// P(says valid | valid).

import { inverseNormal } from "./intervals";
import { seededRandom } from "./random";

/** The labels to aggregate, as flat typed arrays (300,000 labels fit in a few MB). */
export type LabelMatrix = {
  itemCount: number;
  raterCount: number;
  /** Label k is rater `labelRater[k]` saying `labelValid[k]` (1 valid, 0 invalid) of item `labelItem[k]`. */
  labelItem: Int32Array;
  labelRater: Int32Array;
  labelValid: Uint8Array;
  /** The known answer of each item: 1 valid, 0 invalid, -1 unknown (estimated). */
  known: Int8Array;
};

/**
 * "one-coin": one accuracy per rater, the same on valid and invalid items; "two-coin": the full 2×2
 * confusion, sensitivity and specificity apart.
 */
export type DawidSkeneModel = "one-coin" | "two-coin";

export type RaterReliability = {
  sensitivity: number;
  specificity: number;
  /** Labels the rater gave (all of them inform the estimate). */
  n: number;
};

export type DawidSkeneFit = {
  model: DawidSkeneModel;
  /** P(valid) of each item; known items keep 1 or 0. */
  pValid: Float64Array;
  /** The estimated share of valid items among those estimated. */
  prior: number;
  raters: RaterReliability[];
  iterations: number;
  converged: boolean;
};

/**
 * Pseudo-counts added to each cell of a rater's confusion (and to the prior): with a handful of
 * labels an estimate of exactly 0 or 1 would make one label decide an item alone.
 */
const SMOOTHING = 0.5;
const TOLERANCE = 1e-7;
const MAX_ITERATIONS = 500;

/** P(valid) of one item from its labels under given reliabilities and prior: the E-step, exposed for tests. */
export function posteriorValid(prior: number, labels: readonly { rater: RaterReliability; valid: boolean }[]): number {
  let logOdds = Math.log(prior) - Math.log(1 - prior);
  for (const { rater, valid } of labels) logOdds += labelWeight(rater, valid);
  return sigmoid(logOdds);
}

/** How much one label moves an item's log-odds of being valid. */
function labelWeight({ sensitivity, specificity }: RaterReliability, valid: boolean): number {
  return valid ? Math.log(specificity) - Math.log(1 - sensitivity) : Math.log(1 - specificity) - Math.log(sensitivity);
}

function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** Fits the model by EM, starting from each item's share of valid labels. Deterministic. */
export function fitDawidSkene(matrix: LabelMatrix, model: DawidSkeneModel = "two-coin"): DawidSkeneFit {
  const { itemCount, raterCount, labelItem, labelRater, labelValid, known } = matrix;
  const labelCount = labelItem.length;
  const pValid = initialShares(matrix);
  const raters: RaterReliability[] = Array.from({ length: raterCount }, () => ({
    sensitivity: 0.5,
    specificity: 0.5,
    n: 0,
  }));
  const weightIfValid = new Float64Array(raterCount);
  const weightIfInvalid = new Float64Array(raterCount);
  const logOdds = new Float64Array(itemCount);
  let prior = 0.5;
  let iterations = 0;
  let converged = false;

  while (iterations < MAX_ITERATIONS && !converged) {
    iterations++;
    // M-step: reliabilities and the prior from the current soft answers.
    const saysInvalidWhenInvalid = new Float64Array(raterCount);
    const weightInvalid = new Float64Array(raterCount);
    const saysValidWhenValid = new Float64Array(raterCount);
    const weightValid = new Float64Array(raterCount);
    const labelsOf = new Int32Array(raterCount);
    for (let k = 0; k < labelCount; k++) {
      const rater = labelRater[k];
      const p = pValid[labelItem[k]];
      labelsOf[rater]++;
      weightValid[rater] += p;
      weightInvalid[rater] += 1 - p;
      if (labelValid[k] === 1) saysValidWhenValid[rater] += p;
      else saysInvalidWhenInvalid[rater] += 1 - p;
    }
    for (let r = 0; r < raterCount; r++) {
      let sensitivity = (saysInvalidWhenInvalid[r] + SMOOTHING) / (weightInvalid[r] + 2 * SMOOTHING);
      let specificity = (saysValidWhenValid[r] + SMOOTHING) / (weightValid[r] + 2 * SMOOTHING);
      if (model === "one-coin") {
        const accuracy =
          (saysInvalidWhenInvalid[r] + saysValidWhenValid[r] + SMOOTHING) / (labelsOf[r] + 2 * SMOOTHING);
        sensitivity = accuracy;
        specificity = accuracy;
      }
      raters[r] = { sensitivity, specificity, n: labelsOf[r] };
      weightIfValid[r] = labelWeight(raters[r], true);
      weightIfInvalid[r] = labelWeight(raters[r], false);
    }
    let estimated = 0;
    let validMass = 0;
    for (let i = 0; i < itemCount; i++) {
      if (known[i] !== -1) continue;
      estimated++;
      validMass += pValid[i];
    }
    prior = (validMass + SMOOTHING) / (estimated + 2 * SMOOTHING);

    // E-step: each unknown item's P(valid) from its labels.
    logOdds.fill(Math.log(prior) - Math.log(1 - prior));
    for (let k = 0; k < labelCount; k++) {
      const rater = labelRater[k];
      logOdds[labelItem[k]] += labelValid[k] === 1 ? weightIfValid[rater] : weightIfInvalid[rater];
    }
    let largestChange = 0;
    for (let i = 0; i < itemCount; i++) {
      if (known[i] !== -1) continue;
      const next = sigmoid(logOdds[i]);
      largestChange = Math.max(largestChange, Math.abs(next - pValid[i]));
      pValid[i] = next;
    }
    converged = largestChange < TOLERANCE;
  }
  return { model, pValid, prior, raters, iterations, converged };
}

/** Known items at their answer; the others at their share of valid labels (0.5 with none). */
function initialShares({ itemCount, labelItem, labelValid, known }: LabelMatrix): Float64Array {
  const valid = new Float64Array(itemCount);
  const total = new Float64Array(itemCount);
  for (let k = 0; k < labelItem.length; k++) {
    total[labelItem[k]]++;
    valid[labelItem[k]] += labelValid[k];
  }
  const shares = new Float64Array(itemCount);
  for (let i = 0; i < itemCount; i++) {
    shares[i] = known[i] !== -1 ? known[i] : total[i] > 0 ? valid[i] / total[i] : 0.5;
  }
  return shares;
}

/** `interval` is null over fewer than MIN_ITEMS_FOR_INTERVAL items: too few to estimate. */
type Estimate = { n: number; validity: number; interval: [number, number] | null };

/** A dataset's Dawid–Skene section, as the report page and `verity report --dataset --json` show it. */
export type DawidSkeneReport = {
  model: DawidSkeneModel;
  iterations: number;
  converged: boolean;
  /** Per language over the records the rule-based report counts (labelled, not only as gold items). */
  byLanguage: ({ language: string } & Estimate)[];
  overall: Estimate | null;
  annotators: { email: string; labels: number; sensitivity: number; specificity: number }[];
  method: string;
};

/**
 * Below this many items there is no interval: resampling one record gives it back every time, and a
 * language of one record read "99.9% [99.9–99.9]", a certainty nothing supports.
 */
const MIN_ITEMS_FOR_INTERVAL = 5;

/** Above this many items the interval is the bootstrap's normal limit (see validityWithInterval). */
const EXACT_BOOTSTRAP_MAX_ITEMS = 1000;

/**
 * The expected share of valid items among `items` (their mean P(valid)) with a 95% bootstrap
 * interval over items: a seeded percentile bootstrap up to EXACT_BOOTSTRAP_MAX_ITEMS items, and
 * above that its normal limit, mean ± z·s/√n with s the items' plug-in standard deviation (the
 * bootstrap distribution of a mean has exactly that variance, and with over a thousand items it is
 * normal to well within the interval's rounding; resampling 100,000 items a thousand times took
 * seconds). The reliabilities stay as fitted: the interval covers which items were sampled, not the
 * uncertainty of the reliabilities themselves. No interval over fewer than MIN_ITEMS_FOR_INTERVAL
 * items (too few to estimate); null for no items.
 */
export function validityWithInterval(
  pValid: Float64Array,
  items: readonly number[],
  { resamples = 1000, confidence = 0.95, seed = 1979 } = {},
): Estimate | null {
  const n = items.length;
  if (n === 0) return null;
  let sum = 0;
  for (const i of items) sum += pValid[i];
  const validity = sum / n;
  if (n < MIN_ITEMS_FOR_INTERVAL) return { validity, interval: null, n };
  const tail = (1 - confidence) / 2;
  if (n > EXACT_BOOTSTRAP_MAX_ITEMS) {
    let squares = 0;
    for (const i of items) squares += (pValid[i] - validity) ** 2;
    const spread = inverseNormal(1 - tail) * Math.sqrt(squares / n / n);
    return { validity, interval: [Math.max(0, validity - spread), Math.min(1, validity + spread)], n };
  }
  const random = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let total = 0;
    for (let draw = 0; draw < n; draw++) total += pValid[items[Math.floor(random() * n)]];
    means[b] = total / n;
  }
  means.sort();
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))];
  return { validity, interval: [at(tail), at(1 - tail)], n };
}
