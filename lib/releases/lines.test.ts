import { describe, expect, it } from "vitest";

import { dataLine, excludedLine, type ReleaseLineInput } from "./lines";

const row: ReleaseLineInput = {
  key: "abc",
  line: 7,
  language: "python",
  difficulty: "easy",
  extra: { index: 3, verification: "overwritten by the release's own" },
  revision: 2,
  reason: {
    label: "valid",
    decided_by: "blind-check",
    categories: [],
    rule: "accepted-repair",
    evidence: { executable_valid: true, execution_outcome: "PASSED", critic_pass: false },
  },
  question: "q",
  canonicalSolution: "s",
  demoTestFunc: "d",
  fullTestFunc: "f",
};

describe("release lines", () => {
  it("write a record in the input format, its unknown fields back, and its revision", () => {
    const parsed = JSON.parse(dataLine("v1", row));
    expect(parsed).toMatchObject({
      question: "q",
      canonical_solution: "s",
      demo_test_func: "d",
      full_test_func: "f",
      language: "python",
      difficulty: "easy",
      index: 3,
      verification: { release: "v1", record_key: "abc", line: 7, revision: 2, revised: true, rule: "accepted-repair" },
    });
    expect(Object.keys(parsed).slice(0, 4)).toEqual([
      "question",
      "canonical_solution",
      "demo_test_func",
      "full_test_func",
    ]);
  });

  it("write an excluded record with the reason and no code", () => {
    const parsed = JSON.parse(
      excludedLine({
        ...row,
        revision: 1,
        reason: { ...row.reason, label: "invalid", rule: "final-label-invalid", categories: ["precision"] },
      }),
    );
    expect(parsed).toEqual({
      record_key: "abc",
      line: 7,
      language: "python",
      difficulty: "easy",
      revision: 1,
      label: "invalid",
      decided_by: "blind-check",
      categories: ["precision"],
      rule: "final-label-invalid",
      evidence: { executable_valid: true, execution_outcome: "PASSED", critic_pass: false },
    });
  });
});
