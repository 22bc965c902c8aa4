import { describe, expect, it } from "vitest";

import { passAtOneByModel } from "./solvers";

describe("passAtOneByModel", () => {
  it("pools a model's languages and keeps each language's own figure", () => {
    const [a, b] = passAtOneByModel([
      { model: "b", language: "go", attempted: 0, solved: 0, unavailable: 2, pending: 0 },
      { model: "a", language: "python", attempted: 4, solved: 3, unavailable: 0, pending: 0 },
      { model: "a", language: "cpp", attempted: 1, solved: 0, unavailable: 0, pending: 1 },
    ]);
    expect(a.model).toBe("a");
    expect(a).toMatchObject({ attempted: 5, solved: 3, passAtOne: 0.6, pending: 1 });
    expect(a.byLanguage.python.passAtOne).toBe(0.75);
    expect(a.byLanguage.cpp.passAtOne).toBe(0);
    expect(Object.keys(a.byLanguage)).toEqual(["cpp", "python"]);
    // 3 of 5: Wilson 95% interval (0.2307, 0.8824).
    expect(a.interval![0]).toBeCloseTo(0.2307, 3);
    expect(a.interval![1]).toBeCloseTo(0.8824, 3);
    // Nothing ran: no figure, not 0%.
    expect(b).toMatchObject({ attempted: 0, passAtOne: null, interval: null, unavailable: 2 });
  });
});
