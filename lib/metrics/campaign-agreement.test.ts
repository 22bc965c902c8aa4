import { describe, expect, it } from "vitest";

import { humanVsCritic, humanVsExecution, type LabelledItem } from "./campaign-agreement";

function item(final: boolean | null, executableValid: boolean | null, criticPass: boolean | null = null): LabelledItem {
  return { language: "python", labels: [], final: { valid: final, categories: [] }, criticPass, criticFailedRules: [], executableValid };
}

describe("humanVsExecution", () => {
  it("cross-tabulates final labels against execution and leaves out records that did not run", () => {
    const items = [
      item(true, true), item(true, true), item(true, false), // humans valid: 2 pass, 1 fails its tests
      item(false, false), item(false, true), //                  humans invalid: 1 fails, 1 passes
      item(true, null), item(false, null), //                    not run: left out, counted
      item(null, true), //                                       unresolved: left out, not counted
    ];
    const figures = humanVsExecution(items);
    expect(figures.items).toBe(5);
    expect(figures.notRun).toBe(2);
    expect(figures.confusion).toEqual({ bothValid: 2, bothInvalid: 1, humanValidExecutionInvalid: 1, humanInvalidExecutionValid: 1 });
    // p_o = 3/5; marginals humans 3 valid 2 invalid, execution 3 pass 2 fail: p_e = (3·3 + 2·2)/25 = 13/25.
    // κ = (15/25 − 13/25) / (12/25) = 1/6.
    expect(figures.kappa).toBeCloseTo(1 / 6, 10);
  });

  it("is null where nothing ran", () => {
    expect(humanVsExecution([item(true, null)])).toEqual({ items: 0, notRun: 1, kappa: null, confusion: { bothValid: 0, bothInvalid: 0, humanValidExecutionInvalid: 0, humanInvalidExecutionValid: 0 } });
  });
});

describe("humanVsCritic", () => {
  it("compares with the critic, ignoring execution", () => {
    expect(humanVsCritic([item(true, false, true), item(false, null, true)])).toEqual({ items: 2, kappa: 0, confusion: { bothValid: 1, bothInvalid: 0, humanValidCriticInvalid: 0, humanInvalidCriticValid: 1 } });
  });
});
