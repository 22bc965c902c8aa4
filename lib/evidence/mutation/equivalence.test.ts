import { describe, expect, it } from "vitest";

import { equivalentByText, scoreOverRealSurvivors } from "./equivalence";
import { generateMutants } from "./mutate";

const find = (source: string, language: "cpp" | "python", after: string) => {
  const mutant = generateMutants(source, language, 50).find((each) => each.after === after);
  if (!mutant) throw new Error(`no mutant gives ${after}`);
  return mutant;
};

describe("equivalentByText", () => {
  it("calls a change in a C++ solution's own main equivalent: the harness drops that main", () => {
    const source = "int twice(int x) { return x * 2; }\nint main() { return twice(3) > 5; }\n";
    const inMain = find(source, "cpp", "int main() { return twice(3) >= 5; }");
    expect(equivalentByText(source, "cpp", inMain)).toMatch(/own main/);
    expect(equivalentByText(source, "cpp", find(source, "cpp", "int twice(int x) { return x / 2; }"))).toBeNull();
  });

  it("calls an operation with its identity equivalent, and nothing else", () => {
    const source = "def f(x):\n    return x * 1 + (x - 0) + x * 10 + x * 1.5\n";
    const reasons = generateMutants(source, "python", 50)
      .filter((mutant) => mutant.operator === "arithmetic")
      .map((mutant) => [mutant.after, equivalentByText(source, "python", mutant)] as const);
    const equivalent = reasons.filter(([, reason]) => reason !== null).map(([after]) => after);
    expect(equivalent).toContain("return x / 1 + (x - 0) + x * 10 + x * 1.5");
    expect(equivalent).toContain("return x * 1 + (x + 0) + x * 10 + x * 1.5");
    expect(equivalent).not.toContain("return x * 1 + (x - 0) + x / 10 + x * 1.5");
    expect(equivalent).not.toContain("return x * 1 + (x - 0) + x * 10 + x / 1.5");
  });
});

describe("scoreOverRealSurvivors", () => {
  it("leaves likely-equivalent survivors out of the denominator", () => {
    expect(scoreOverRealSurvivors(2, 8, 0)).toBe(0.25);
    expect(scoreOverRealSurvivors(2, 8, 4)).toBe(0.5);
    expect(scoreOverRealSurvivors(0, 2, 2)).toBeNull();
  });
});
