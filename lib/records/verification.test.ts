import { describe, expect, it } from "vitest";

import { executableValidity, INCONCLUSIVE, summarizeOutcome } from "./verification";

describe("a record's outcome from its two runs", () => {
  it("is the first test's that really failed, else INCONCLUSIVE when a run could not be told from the load", () => {
    expect(summarizeOutcome("PASSED", "PASSED")).toBe("PASSED");
    expect(summarizeOutcome("WRONG_ANSWER", "PASSED")).toBe("WRONG_ANSWER");
    expect(summarizeOutcome("PASSED", "RUNTIME_ERROR")).toBe("RUNTIME_ERROR");
    expect(summarizeOutcome(INCONCLUSIVE, "WRONG_ANSWER")).toBe("WRONG_ANSWER");
    expect(summarizeOutcome("PASSED", INCONCLUSIVE)).toBe(INCONCLUSIVE);
    expect(summarizeOutcome(INCONCLUSIVE, INCONCLUSIVE)).toBe(INCONCLUSIVE);
  });

  it("makes a record executable-valid, failed, or not known (inconclusive)", () => {
    expect(executableValidity("PASSED", "PASSED")).toBe(true);
    expect(executableValidity("PASSED", "TIME_LIMIT_EXCEEDED")).toBe(false);
    expect(executableValidity("PASSED", INCONCLUSIVE)).toBeNull();
    expect(executableValidity(INCONCLUSIVE, "COMPILATION_ERROR")).toBe(false);
  });
});
