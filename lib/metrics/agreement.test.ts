import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cohensKappa,
  confusion2x2,
  fleissKappa,
  krippendorffAlphaNominal,
  percentAgreement,
  precisionRecall,
  type Label,
} from "./agreement";

// ---------------------------------------------------------------------------------------------
// Published data sets
// ---------------------------------------------------------------------------------------------

/** Expands a 2×2 (or k×k) contingency table of counts into rater pairs. */
function pairsFromTable<T extends Label>(categories: T[], counts: number[][]): [T, T][] {
  const pairs: [T, T][] = [];
  counts.forEach((row, i) =>
    row.forEach((count, j) => {
      for (let c = 0; c < count; c += 1) pairs.push([categories[i], categories[j]]);
    }),
  );
  return pairs;
}

/** Expands per-item category counts (Fleiss' n_ij layout) into per-item rating lists. */
function itemsFromCounts(categories: string[], rows: number[][]): string[][] {
  return rows.map((row) => row.flatMap((count, j) => Array<string>(count).fill(categories[j])));
}

// Fleiss, J. L. (1971) "Measuring nominal scale agreement among many raters", Psychological Bulletin
// 76(5):378–382, Table 1: 30 patients, 6 psychiatrists each, 5 diagnoses. The paper reports
// p_j = .144 .144 .167 .306 .239, P̄ = .556, P̄e = .220 and κ = .430. Rows below are the per-patient
// diagnoses (1 depression, 2 personality disorder, 3 schizophrenia, 4 neurosis, 5 other) in the layout
// the table gives (also distributed as the `diagnoses` data set of R's irr package).
const FLEISS_1971_TABLE_1 = [
  [4, 4, 4, 4, 4, 4],
  [2, 2, 2, 5, 5, 5],
  [2, 3, 3, 3, 3, 5],
  [5, 5, 5, 5, 5, 5],
  [2, 2, 2, 4, 4, 4],
  [1, 1, 3, 3, 3, 3],
  [3, 3, 3, 3, 5, 5],
  [1, 1, 3, 3, 3, 4],
  [1, 1, 4, 4, 4, 4],
  [5, 5, 5, 5, 5, 5],
  [1, 4, 4, 4, 4, 4],
  [1, 2, 4, 4, 4, 4],
  [2, 2, 2, 3, 3, 3],
  [1, 4, 4, 4, 4, 4],
  [2, 2, 4, 4, 4, 5],
  [3, 3, 3, 3, 3, 5],
  [1, 1, 1, 4, 5, 5],
  [1, 1, 1, 1, 1, 2],
  [2, 2, 4, 4, 4, 4],
  [1, 3, 3, 5, 5, 5],
  [5, 5, 5, 5, 5, 5],
  [2, 4, 4, 4, 4, 4],
  [2, 2, 4, 5, 5, 5],
  [1, 1, 4, 4, 4, 4],
  [1, 4, 4, 4, 4, 5],
  [2, 2, 2, 2, 2, 4],
  [1, 1, 1, 1, 5, 5],
  [2, 2, 4, 4, 4, 4],
  [1, 3, 3, 3, 3, 3],
  [5, 5, 5, 5, 5, 5],
].map((row) => row.map((code) => ["depression", "personality", "schizophrenia", "neurosis", "other"][code - 1]));

// Wikipedia, "Fleiss' kappa", worked example (secondary source): 10 subjects, 14 raters, 5 categories,
// given as n_ij counts. The article reports P̄ = 0.378, P̄e = 0.213 and κ = 0.210.
const WIKIPEDIA_FLEISS = itemsFromCounts(
  ["1", "2", "3", "4", "5"],
  [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ],
);

/** Transposes coders × units (the layout Krippendorff prints) into units × coders. */
function unitsFromCoders(coders: (Label | null)[][]): (Label | null)[][] {
  return coders[0].map((_, unit) => coders.map((row) => row[unit]));
}

// Krippendorff, K. (2011) "Computing Krippendorff's Alpha-Reliability", Annenberg School for
// Communication, University of Pennsylvania. Section A, binary data, two observers, no missing data:
// α = 0.095.
const KRIPPENDORFF_A = unitsFromCoders([
  [0, 1, 0, 0, 0, 0, 0, 0, 1, 0].map(String),
  [1, 1, 1, 0, 0, 1, 0, 0, 0, 0].map(String),
]);
// Section B, nominal data, two observers (Ben, Gerry), no missing data: α = 0.692.
const KRIPPENDORFF_B = unitsFromCoders([
  ["a", "a", "b", "b", "d", "c", "c", "c", "e", "d", "d", "a"],
  ["b", "a", "b", "b", "b", "c", "c", "c", "e", "d", "d", "d"],
]);
// Section C, nominal data, four observers, 12 units, missing values (unit 12 has a single value and is
// not pairable): α = 0.743.
const KRIPPENDORFF_C = unitsFromCoders([
  ["1", "2", "3", "3", "2", "1", "4", "1", "2", null, null, null],
  ["1", "2", "3", "3", "2", "2", "4", "1", "2", "5", null, "3"],
  [null, "3", "3", "3", "2", "3", "4", "2", "2", "5", "1", null],
  ["1", "2", "3", "3", "2", "4", "4", "1", "2", "5", "1", null],
]);

// ---------------------------------------------------------------------------------------------
// Property-test generators
// ---------------------------------------------------------------------------------------------

const label = fc.constantFrom<Label>("a", "b", "c", true, false);
const ratingMatrix = (raters: number) =>
  fc.array(fc.array(label, { minLength: raters, maxLength: raters }), { minLength: 1, maxLength: 25 });
const raterCount = fc.integer({ min: 2, max: 6 });
const withMissing = fc.array(fc.array(fc.option(label, { nil: null, freq: 3 }), { minLength: 0, maxLength: 6 }), {
  maxLength: 25,
});
const labelPairs = fc.array(fc.tuple(label, label), { minLength: 1, maxLength: 40 });

/** Renames labels through a bijection; nominal coefficients must not notice. */
const RENAME = new Map<Label, Label>([
  ["a", false],
  ["b", "c"],
  ["c", "a"],
  [true, "b"],
  [false, true],
]);
const rename = (value: Label | null): Label | null => (value === null ? null : RENAME.get(value)!);

function close(a: number | null, b: number | null): void {
  if (a === null || b === null) expect(a).toBe(b);
  else expect(a).toBeCloseTo(b, 10);
}

// ---------------------------------------------------------------------------------------------

describe("percentAgreement", () => {
  it("equals Fleiss' P̄ on the Wikipedia Fleiss example: 0.378", () => {
    expect(percentAgreement(WIKIPEDIA_FLEISS)).toBeCloseTo(0.378, 3);
  });

  it("equals Fleiss' P̄ = .556 on Fleiss (1971) Table 1", () => {
    expect(percentAgreement(FLEISS_1971_TABLE_1)).toBeCloseTo(0.556, 3);
  });

  it("gives p_o = 0.70 on the Wikipedia Cohen's kappa example (20/5/10/15)", () => {
    const pairs = pairsFromTable(
      ["yes", "no"],
      [
        [20, 5],
        [10, 15],
      ],
    );
    expect(percentAgreement(pairs)).toBeCloseTo(0.7, 12);
  });

  it("scores each item by agreeing pairs and skips nulls and items with fewer than 2 ratings", () => {
    // Item 1: a,a,b → 1 of 3 pairs agree; item 2: a,a (null dropped) → 1; item 3: one rating, skipped.
    expect(
      percentAgreement([
        ["a", "a", "b"],
        ["a", null, "a"],
        ["b", null, null],
      ]),
    ).toBeCloseTo((1 / 3 + 1) / 2, 12);
  });

  it("is null when no item has two ratings", () => {
    expect(percentAgreement([])).toBeNull();
    expect(percentAgreement([["a", null], [null], []])).toBeNull();
  });

  it("keeps boolean and string labels apart", () => {
    expect(percentAgreement([[true, "true"]])).toBe(0);
  });

  it("is 1 under perfect agreement and stays within [0, 1]", () => {
    fc.assert(
      fc.property(withMissing, (items) => {
        const value = percentAgreement(items);
        const unanimous = percentAgreement(items.map((item) => item.map((r) => (r === null ? null : "same"))));
        if (value === null) {
          expect(unanimous).toBeNull();
          return;
        }
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1 + 1e-12);
        expect(unanimous).toBe(1);
      }),
    );
  });
});

describe("cohensKappa", () => {
  it("reproduces the Wikipedia Cohen's kappa example: 50 items, 20/5/10/15 → κ = 0.4", () => {
    expect(
      cohensKappa(
        pairsFromTable(
          ["yes", "no"],
          [
            [20, 5],
            [10, 15],
          ],
        ),
      ),
    ).toBeCloseTo(0.4, 12);
  });

  it("reproduces the Wikipedia 'same percentages, different numbers' examples: κ = 0.1304 and 0.2593", () => {
    expect(
      cohensKappa(
        pairsFromTable(
          [true, false],
          [
            [45, 15],
            [25, 15],
          ],
        ),
      ),
    ).toBeCloseTo(0.1304, 4);
    expect(
      cohensKappa(
        pairsFromTable(
          [true, false],
          [
            [25, 35],
            [5, 35],
          ],
        ),
      ),
    ).toBeCloseTo(0.2593, 4);
  });

  // A three-category table worked by hand (not taken from a publication): proportions
  // .44 .07 .09 / .05 .20 .05 / .01 .03 .06 → p_o = .70, p_c = .60·.50 + .30·.30 + .10·.20 = .41,
  // κ = (.70 − .41) / (1 − .41) = .29 / .59 ≈ .49. (Cohen 1960's own Table 1 is a different
  // example, with p_o = .29 and p_c = .35.)
  it("computes a three-category table worked by hand: p_o = .70, p_c = .41, κ = .29/.59", () => {
    const pairs = pairsFromTable(
      ["1", "2", "3"],
      [
        [88, 14, 18],
        [10, 40, 10],
        [2, 6, 12],
      ],
    );
    expect(percentAgreement(pairs)).toBeCloseTo(0.7, 12);
    expect(cohensKappa(pairs)).toBeCloseTo(0.29 / 0.59, 12);
    expect(cohensKappa(pairs)).toBeCloseTo(0.49, 2);
  });

  it("is null without pairs or when expected agreement is 1", () => {
    expect(cohensKappa([])).toBeNull();
    expect(
      cohensKappa([
        ["a", "a"],
        ["a", "a"],
      ]),
    ).toBeNull();
    expect(cohensKappa([[true, true]])).toBeNull();
  });

  it("is 0 when each rater is constant but they disagree (expected agreement 0)", () => {
    expect(
      cohensKappa([
        ["a", "b"],
        ["a", "b"],
      ]),
    ).toBe(0);
  });

  it("is -1 for perfectly crossed balanced ratings", () => {
    expect(
      cohensKappa([
        [true, false],
        [false, true],
      ]),
    ).toBe(-1);
  });

  it("is symmetric in the raters, invariant to relabelling, 1 when they agree, and within [-1, 1]", () => {
    fc.assert(
      fc.property(labelPairs, (pairs) => {
        const kappa = cohensKappa(pairs);
        close(cohensKappa(pairs.map(([a, b]) => [b, a])), kappa);
        close(cohensKappa(pairs.map(([a, b]) => [rename(a)!, rename(b)!])), kappa);
        if (kappa !== null) {
          expect(kappa).toBeGreaterThanOrEqual(-1 - 1e-12);
          expect(kappa).toBeLessThanOrEqual(1);
        }
        const agreeing = cohensKappa(pairs.map(([a]) => [a, a]));
        const distinct = new Set(pairs.map(([a]) => a)).size;
        expect(agreeing).toBe(distinct > 1 ? 1 : null);
      }),
    );
  });
});

describe("fleissKappa", () => {
  it("reproduces Fleiss (1971) Table 1: κ = .430", () => {
    expect(fleissKappa(FLEISS_1971_TABLE_1)).toBeCloseTo(0.43, 3);
  });

  it("reproduces the Wikipedia Fleiss' kappa example: 10 items, 14 raters, 5 categories → κ = 0.210", () => {
    expect(fleissKappa(WIKIPEDIA_FLEISS)).toBeCloseTo(0.21, 3);
  });

  it("is null without items, with unequal or fewer than 2 ratings per item, or when P̄e = 1", () => {
    expect(fleissKappa([])).toBeNull();
    expect(
      fleissKappa([
        ["a", "b"],
        ["a", "b", "a"],
      ]),
    ).toBeNull();
    expect(fleissKappa([["a"], ["b"]])).toBeNull();
    expect(
      fleissKappa([
        [true, true],
        [true, true],
      ]),
    ).toBeNull();
  });

  it("reduces to Scott's π with two raters per item (hand check on the Krippendorff 2011 §A data)", () => {
    // Not a published value: Scott's (1955) π worked by hand for §A: p_o = 6/10, pooled proportions
    // .7/.3 give p_e = .58, so π = (.6 − .58)/(1 − .58) = 1/21.
    expect(fleissKappa(KRIPPENDORFF_A as Label[][])).toBeCloseTo(1 / 21, 12);
  });

  it("is 1 under perfect agreement, invariant to rater order and relabelling, and at least -1/(n-1)", () => {
    fc.assert(
      fc.property(
        raterCount.chain((n) => fc.tuple(fc.constant(n), ratingMatrix(n))),
        ([n, items]) => {
          const kappa = fleissKappa(items);
          close(fleissKappa(items.map((item) => [...item].reverse())), kappa);
          close(fleissKappa(items.map((item) => item.map((r) => rename(r)!))), kappa);
          close(fleissKappa([...items].reverse()), kappa);
          if (kappa !== null) {
            expect(kappa).toBeGreaterThanOrEqual(-1 / (n - 1) - 1e-12);
            expect(kappa).toBeLessThanOrEqual(1 + 1e-12);
          }
          const perfect = fleissKappa(items.map((item) => item.map(() => item[0])));
          const distinct = new Set(items.map((item) => item[0])).size;
          if (distinct > 1) expect(perfect).toBeCloseTo(1, 12);
          else expect(perfect).toBeNull();
        },
      ),
    );
  });
});

describe("krippendorffAlphaNominal", () => {
  it("reproduces Krippendorff (2011) §A, binary, two observers: α = 0.095", () => {
    expect(krippendorffAlphaNominal(KRIPPENDORFF_A)).toBeCloseTo(0.095, 3);
  });

  it("reproduces Krippendorff (2011) §B, nominal, two observers: α = 0.692", () => {
    expect(krippendorffAlphaNominal(KRIPPENDORFF_B)).toBeCloseTo(0.692, 3);
  });

  it("reproduces Krippendorff (2011) §C, nominal, four observers with missing values: α = 0.743", () => {
    expect(krippendorffAlphaNominal(KRIPPENDORFF_C)).toBeCloseTo(0.743, 3);
  });

  it("ignores units with a single value", () => {
    const withoutUnit12 = KRIPPENDORFF_C.slice(0, 11);
    expect(krippendorffAlphaNominal(withoutUnit12)).toBe(krippendorffAlphaNominal(KRIPPENDORFF_C));
  });

  it("is null with fewer than 2 pairable values or when expected disagreement is 0", () => {
    expect(krippendorffAlphaNominal([])).toBeNull();
    expect(
      krippendorffAlphaNominal([
        ["a", null],
        [null, "b"],
      ]),
    ).toBeNull();
    expect(krippendorffAlphaNominal([["a", "a"], ["a", "a", null], ["b"]])).toBeNull();
  });

  it("is negative for two coders who always disagree", () => {
    // n = 4, Σ o_ck (c≠k) = 4, Σ n_c·n_k (c≠k) = 8 → α = 1 − 3·4/8 = −0.5.
    expect(
      krippendorffAlphaNominal([
        [true, false],
        [false, true],
      ]),
    ).toBeCloseTo(-0.5, 12);
  });

  it("relates to Fleiss' κ on complete data: 1 − α = (1 − κ)(nN − 1)/(nN)", () => {
    fc.assert(
      fc.property(
        raterCount.chain((n) => ratingMatrix(n)),
        (items) => {
          const kappa = fleissKappa(items);
          const alpha = krippendorffAlphaNominal(items);
          if (kappa === null) {
            expect(alpha).toBeNull();
            return;
          }
          const total = items.length * items[0].length;
          expect(1 - alpha!).toBeCloseTo(((1 - kappa) * (total - 1)) / total, 10);
        },
      ),
    );
  });

  it("is 1 under perfect agreement, invariant to coder and unit order and relabelling, and at most 1", () => {
    fc.assert(
      fc.property(withMissing, (items) => {
        const alpha = krippendorffAlphaNominal(items);
        close(krippendorffAlphaNominal(items.map((unit) => [...unit].reverse())), alpha);
        close(krippendorffAlphaNominal([...items].reverse()), alpha);
        close(krippendorffAlphaNominal(items.map((unit) => unit.map(rename))), alpha);
        if (alpha !== null) expect(alpha).toBeLessThanOrEqual(1 + 1e-12);
        const perfectItems = items.map((unit) => {
          const first = unit.find((r) => r !== null) ?? null;
          return unit.map((r) => (r === null ? null : first));
        });
        const perfect = krippendorffAlphaNominal(perfectItems);
        if (perfect !== null) expect(perfect).toBeCloseTo(1, 12);
      }),
    );
  });
});

describe("confusion2x2", () => {
  it("tabulates the Wikipedia Cohen's kappa example back into 20/5/10/15", () => {
    const pairs = pairsFromTable(
      [true, false],
      [
        [20, 5],
        [10, 15],
      ],
    );
    expect(confusion2x2(pairs)).toEqual({
      bothTrue: 20,
      firstTrueSecondFalse: 5,
      firstFalseSecondTrue: 10,
      bothFalse: 15,
      n: 50,
    });
  });

  it("is all zeros for no pairs", () => {
    expect(confusion2x2([])).toEqual({
      bothTrue: 0,
      bothFalse: 0,
      firstTrueSecondFalse: 0,
      firstFalseSecondTrue: 0,
      n: 0,
    });
  });

  it("mirrors its off-diagonal cells when the pair order is swapped, and its cells sum to n", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.boolean())), (pairs) => {
        const table = confusion2x2(pairs);
        const swapped = confusion2x2(pairs.map(([a, b]) => [b, a]));
        expect(swapped).toEqual({
          ...table,
          firstTrueSecondFalse: table.firstFalseSecondTrue,
          firstFalseSecondTrue: table.firstTrueSecondFalse,
        });
        expect(table.bothTrue + table.bothFalse + table.firstTrueSecondFalse + table.firstFalseSecondTrue).toBe(
          table.n,
        );
        expect(table.n).toBe(pairs.length);
      }),
    );
  });
});

describe("precisionRecall", () => {
  // Wikipedia, "Precision and recall", introductory example: a program finds 8 dogs in a picture of
  // 12 dogs and 10 cats; 5 are dogs (TP), 3 are cats (FP), 7 dogs are missed (FN) → precision 5/8,
  // recall 5/12.
  it("reproduces the Wikipedia dog-recognition example: precision 5/8, recall 5/12", () => {
    const { precision, recall } = precisionRecall({ truePositives: 5, falsePositives: 3, falseNegatives: 7 });
    expect(precision).toBeCloseTo(5 / 8, 12);
    expect(recall).toBeCloseTo(5 / 12, 12);
  });

  it("returns null for the part whose denominator is 0", () => {
    expect(precisionRecall({ truePositives: 0, falsePositives: 0, falseNegatives: 4 })).toEqual({
      precision: null,
      recall: 0,
    });
    expect(precisionRecall({ truePositives: 0, falsePositives: 2, falseNegatives: 0 })).toEqual({
      precision: 0,
      recall: null,
    });
    expect(precisionRecall({ truePositives: 0, falsePositives: 0, falseNegatives: 0 })).toEqual({
      precision: null,
      recall: null,
    });
  });

  it("swaps precision and recall when false positives and false negatives swap", () => {
    const count = fc.nat({ max: 1000 });
    fc.assert(
      fc.property(count, count, count, (tp, fp, fn) => {
        const a = precisionRecall({ truePositives: tp, falsePositives: fp, falseNegatives: fn });
        const b = precisionRecall({ truePositives: tp, falsePositives: fn, falseNegatives: fp });
        expect(b).toEqual({ precision: a.recall, recall: a.precision });
      }),
    );
  });
});
