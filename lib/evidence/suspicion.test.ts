import { describe, expect, it } from "vitest";

import {
  criticExecutionDisagreement,
  evidenceReasonsOf,
  hasWeakTests,
  isUnsolved,
  type SuspicionFacts,
  suspicionScore,
} from "./suspicion";

const none: SuspicionFacts = {
  mutationScore: null,
  flaky: null,
  solversTotal: 0,
  solversSolved: 0,
  criticPass: null,
  executableValid: null,
};

describe("critic and execution disagree", () => {
  it("when the critic passes a record whose canonical solution fails its tests, and the reverse", () => {
    expect(criticExecutionDisagreement({ criticPass: true, executableValid: false, flaky: false })).toBe(
      "critic-pass-execution-failed",
    );
    expect(criticExecutionDisagreement({ criticPass: false, executableValid: true, flaky: null })).toBe(
      "critic-fail-execution-passed",
    );
  });

  it("not when they agree", () => {
    expect(criticExecutionDisagreement({ criticPass: true, executableValid: true, flaky: false })).toBeNull();
    expect(criticExecutionDisagreement({ criticPass: false, executableValid: false, flaky: false })).toBeNull();
  });

  it("not when either has no verdict (no or unclear critic; not verified or unavailable here)", () => {
    for (const criticPass of [true, false, null])
      for (const executableValid of [true, false, null])
        if (criticPass === null || executableValid === null)
          expect(criticExecutionDisagreement({ criticPass, executableValid, flaky: false })).toBeNull();
  });

  it("not when the record is flaky: its execution outcome is no verdict", () => {
    expect(criticExecutionDisagreement({ criticPass: true, executableValid: false, flaky: true })).toBeNull();
    expect(criticExecutionDisagreement({ criticPass: false, executableValid: true, flaky: true })).toBeNull();
  });
});

describe("the other reasons", () => {
  it("weak tests: a measured score below the threshold (the default 0.5, or the one given)", () => {
    expect(hasWeakTests({ mutationScore: 0.49 })).toBe(true);
    expect(hasWeakTests({ mutationScore: 0.5 })).toBe(false);
    expect(hasWeakTests({ mutationScore: null })).toBe(false);
    expect(hasWeakTests({ mutationScore: 0.7 }, 0.8)).toBe(true);
    expect(hasWeakTests({ mutationScore: 0 }, 0)).toBe(false);
  });

  it("solved by no model: some solution ran and none passed", () => {
    expect(isUnsolved({ solversTotal: 3, solversSolved: 0 })).toBe(true);
    expect(isUnsolved({ solversTotal: 3, solversSolved: 1 })).toBe(false);
    expect(isUnsolved({ solversTotal: 0, solversSolved: 0 })).toBe(false);
  });

  it("lists every reason a record is in, in the tabs' order", () => {
    expect(evidenceReasonsOf(none)).toEqual([]);
    expect(
      evidenceReasonsOf({
        mutationScore: 0.25,
        flaky: false,
        solversTotal: 2,
        solversSolved: 0,
        criticPass: true,
        executableValid: false,
      }),
    ).toEqual(["weak_tests", "unsolved", "critic_vs_execution"]);
    expect(evidenceReasonsOf({ ...none, flaky: true, criticPass: true, executableValid: false })).toEqual(["flaky"]);
  });
});

describe("suspicion score", () => {
  it("is 0 without evidence, and for a record whose evidence is all reassuring", () => {
    expect(suspicionScore(none)).toBe(0);
    expect(
      suspicionScore({
        mutationScore: 1,
        flaky: false,
        solversTotal: 3,
        solversSolved: 3,
        criticPass: true,
        executableValid: true,
      }),
    ).toBe(0);
  });

  it("adds each reason's points and the graded parts: 4 + 3 + 3 + 2 + ½(1 − 0.2) + ½(1 − 0)", () => {
    const everything = { mutationScore: 0.2, flaky: true, solversTotal: 2, solversSolved: 0 };
    // Flaky hides the disagreement; weak tests, flaky and unsolved hold.
    expect(suspicionScore({ ...everything, criticPass: true, executableValid: false })).toBeCloseTo(
      2 + 4 + 3 + 0.4 + 0.5,
      12,
    );
    expect(suspicionScore({ ...none, criticPass: false, executableValid: true })).toBe(3);
  });

  it("orders the reasons: flaky above unsolved or a disagreement above weak tests above nothing", () => {
    const flaky = suspicionScore({ ...none, flaky: true });
    const unsolved = suspicionScore({ ...none, solversTotal: 3, solversSolved: 0 });
    const disagree = suspicionScore({ ...none, criticPass: true, executableValid: false });
    const weak = suspicionScore({ ...none, mutationScore: 0.4 });
    const strong = suspicionScore({ ...none, mutationScore: 0.9 });
    expect(flaky).toBeGreaterThanOrEqual(unsolved);
    expect(disagree).toBe(3);
    expect(unsolved).toBeGreaterThan(weak);
    expect(disagree).toBeGreaterThan(weak);
    expect(weak).toBeGreaterThan(strong);
    expect(strong).toBeGreaterThan(0);
  });

  it("within the same reasons, weaker tests and fewer solving models come first", () => {
    expect(suspicionScore({ ...none, mutationScore: 0.1 })).toBeGreaterThan(
      suspicionScore({ ...none, mutationScore: 0.3 }),
    );
    expect(suspicionScore({ ...none, solversTotal: 3, solversSolved: 1 })).toBeGreaterThan(
      suspicionScore({ ...none, solversTotal: 3, solversSolved: 2 }),
    );
  });

  it("is deterministic: the same facts give the same score", () => {
    const facts = { ...none, mutationScore: 0.37, solversTotal: 7, solversSolved: 2 };
    expect(suspicionScore(facts)).toBe(suspicionScore({ ...facts }));
  });
});
