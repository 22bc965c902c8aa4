import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  evidenceStrength,
  finalLabel,
  finalVerdict,
  strongestEvidence,
  type AggregationRule,
  type AnnotatorLabel,
  type FinalVerdict,
} from "./final-label";

// Worked cases written for these tests against the campaign rules (no published source applies).
const invalidatingKeys = new Set(["name-mismatch", "precision", "wrong-expected-output"]);
const valid = (...categories: string[]): AnnotatorLabel => ({ valid: true, categories });
const invalid = (...categories: string[]): AnnotatorLabel => ({ valid: false, categories });
const unresolved = { valid: null, categories: [], decidedBy: null };
const rules: AggregationRule[] = ["consensus", "majority", "strict"];

const resolve = (rule: AggregationRule, labels: AnnotatorLabel[], adjudication: AnnotatorLabel | null = null) =>
  finalLabel({ rule, labels, adjudication, invalidatingKeys });

describe("finalLabel", () => {
  it.each(rules)("%s: an adjudication wins with its own categories", (rule) => {
    expect(resolve(rule, [invalid("precision"), invalid("precision")], valid("weak-coverage"))).toEqual({
      valid: true,
      categories: ["weak-coverage"],
      decidedBy: "adjudication",
    });
    expect(resolve(rule, [], invalid("precision", "other"))).toEqual({
      valid: false,
      categories: ["precision", "other"],
      decidedBy: "adjudication",
    });
  });

  it.each(rules)("%s: no labels and no adjudication is unresolved", (rule) => {
    expect(resolve(rule, [])).toEqual(unresolved);
  });

  it.each(rules)("%s: unanimous Valid is Valid with no categories", (rule) => {
    expect(resolve(rule, [valid("weak-coverage"), valid()])).toEqual({
      valid: true,
      categories: [],
      decidedBy: "unanimous",
    });
  });

  it.each(rules)("%s: unanimous Invalid unions the invalidating categories, sorted and deduplicated", (rule) => {
    const labels = [invalid("wrong-expected-output", "weak-coverage"), invalid("precision", "wrong-expected-output")];
    expect(resolve(rule, labels)).toEqual({
      valid: false,
      categories: ["precision", "wrong-expected-output"],
      decidedBy: "unanimous",
    });
  });

  it.each(rules)("%s: a single annotator decides unanimously", (rule) => {
    expect(resolve(rule, [invalid("name-mismatch")])).toEqual({
      valid: false,
      categories: ["name-mismatch"],
      decidedBy: "unanimous",
    });
  });

  it("consensus: any disagreement is unresolved", () => {
    expect(resolve("consensus", [valid(), valid(), invalid("precision")])).toEqual(unresolved);
  });

  it("majority: more than half decides, and only Invalid voters' categories count", () => {
    expect(resolve("majority", [valid(), invalid("precision"), invalid("name-mismatch", "weak-coverage")])).toEqual({
      valid: false,
      categories: ["name-mismatch", "precision"],
      decidedBy: "majority",
    });
    expect(resolve("majority", [valid(), valid(), invalid("precision")])).toEqual({
      valid: true,
      categories: [],
      decidedBy: "majority",
    });
  });

  it("majority: a tie is unresolved", () => {
    expect(resolve("majority", [valid(), invalid("precision")])).toEqual(unresolved);
    expect(resolve("majority", [valid(), valid(), invalid(), invalid()])).toEqual(unresolved);
  });

  it("strict: one Invalid makes the record Invalid with that annotator's categories", () => {
    expect(resolve("strict", [valid("weak-coverage"), valid(), invalid("precision", "weak-coverage")])).toEqual({
      valid: false,
      categories: ["precision"],
      decidedBy: "strict",
    });
  });

  it("an Invalid label with only non-invalidating categories yields no categories", () => {
    expect(resolve("strict", [valid(), invalid("weak-coverage")])).toEqual({
      valid: false,
      categories: [],
      decidedBy: "strict",
    });
  });

  const labelsArb = fc.array(
    fc.record({
      valid: fc.boolean(),
      categories: fc.subarray(["name-mismatch", "precision", "weak-coverage", "other"]),
    }),
    { maxLength: 7 },
  );

  it("does not depend on annotator order and never mutates its input", () => {
    fc.assert(
      fc.property(labelsArb, fc.constantFrom(...rules), (labels, rule) => {
        const snapshot = structuredClone(labels);
        expect(resolve(rule, [...labels].reverse())).toEqual(resolve(rule, labels));
        expect(labels).toEqual(snapshot);
      }),
    );
  });

  it("orders the rules: strict decides whenever majority does, majority whenever consensus does", () => {
    fc.assert(
      fc.property(labelsArb, (labels) => {
        const consensus = resolve("consensus", labels);
        const majority = resolve("majority", labels);
        const strict = resolve("strict", labels);
        if (consensus.valid !== null) expect(majority).toEqual(consensus);
        if (labels.length > 0) expect(strict.valid).not.toBeNull();
        if (strict.valid === true) expect(majority.valid).toBe(true);
        for (const result of [consensus, majority, strict]) {
          expect(result.categories).toEqual([...new Set(result.categories)].sort());
          if (result.valid !== false) expect(result.categories).toEqual([]);
          expect(result.categories.every((key) => invalidatingKeys.has(key))).toBe(true);
        }
      }),
    );
  });
});

describe("strongestEvidence (the cross-campaign rule)", () => {
  const evidence = (name: string, rule: AggregationRule, valids: boolean[], adjudication: boolean | null = null) => {
    const counts = { labelCount: valids.length, validCount: valids.filter(Boolean).length };
    return {
      name,
      counts,
      verdict: finalVerdict({ rule, ...counts, adjudicationValid: adjudication }) as FinalVerdict,
    };
  };
  const winner = (...items: ReturnType<typeof evidence>[]) => strongestEvidence(items)?.name;

  it("lets an adjudication beat any number of agreeing annotators", () => {
    expect(
      winner(
        evidence("adjudicated", "consensus", [true, false], false),
        evidence("three", "consensus", [true, true, true]),
      ),
    ).toBe("adjudicated");
  });

  it("lets more agreeing annotators beat fewer, and any resolved label beat an unresolved one", () => {
    expect(winner(evidence("two", "consensus", [false, false]), evidence("one", "consensus", [true]))).toBe("two");
    expect(
      winner(evidence("majority of two", "majority", [true, true, false]), evidence("one", "consensus", [false])),
    ).toBe("majority of two");
    expect(
      winner(evidence("one", "consensus", [true]), evidence("split", "consensus", [true, true, false, false])),
    ).toBe("one");
    expect(winner(evidence("split", "consensus", [true, false]), evidence("unlabelled", "consensus", []))).toBe(
      "split",
    );
  });

  it("gives a tie to the latest (last) item", () => {
    expect(winner(evidence("first", "consensus", [false, false]), evidence("second", "consensus", [true, true]))).toBe(
      "second",
    );
    expect(winner(evidence("first", "consensus", []), evidence("second", "consensus", []))).toBe("second");
    expect(strongestEvidence([])).toBeUndefined();
  });

  it("ranks with the verdict finalLabel gives", () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { maxLength: 7 }),
        fc.constantFrom(...rules),
        fc.option(fc.boolean(), { nil: null }),
        (valids, rule, adjudication) => {
          const labels = valids.map((valid) => ({ valid, categories: [] }));
          const { categories: _categories, ...verdict } = finalLabel({
            rule,
            labels,
            adjudication: adjudication === null ? null : { valid: adjudication, categories: [] },
            invalidatingKeys,
          });
          const counts = { labelCount: valids.length, validCount: valids.filter(Boolean).length };
          expect(finalVerdict({ rule, ...counts, adjudicationValid: adjudication })).toEqual(verdict);
          expect(evidenceStrength(verdict, counts) > 0).toBe(valids.length > 0 || adjudication !== null);
        },
      ),
    );
  });
});
