import { describe, expect, it } from "vitest";

import { flakyVerdict } from "./flaky";

describe("flakyVerdict", () => {
  it("is flaky when repeated runs differ and no time-out explains it", () => {
    expect(flakyVerdict(["PASSED/PASSED", "PASSED/WRONG_ANSWER"])).toBe(true);
    expect(flakyVerdict(["PASSED/PASSED", "PASSED/PASSED", "PASSED/PASSED"])).toBe(false);
    expect(flakyVerdict(["WRONG_ANSWER/WRONG_ANSWER", "WRONG_ANSWER/WRONG_ANSWER"])).toBe(false);
  });

  it("cannot tell when a run timed out or was inconclusive among differing outcomes, nor from one run", () => {
    expect(flakyVerdict(["PASSED/PASSED", "PASSED/TIME_LIMIT_EXCEEDED"])).toBeNull();
    expect(flakyVerdict(["COMPILATION_ERROR/COMPILATION_ERROR", "TIME_LIMIT_EXCEEDED/TIME_LIMIT_EXCEEDED"])).toBeNull();
    expect(flakyVerdict(["PASSED/PASSED", "INCONCLUSIVE/PASSED"])).toBeNull();
    expect(flakyVerdict(["PASSED/PASSED"])).toBeNull();
  });
});
