import { describe, expect, it } from "vitest";

import { classifyRun, hasFailureText } from "./classify";
import type { StepOutcome } from "./types";

const ok: StepOutcome = { exitCode: 0, timedOut: false, stdout: "", stderr: "" };

describe("classifyRun", () => {
  it("refuses a syntax error before anything else", () => {
    expect(classifyRun({ syntaxError: true, compile: null, run: ok }, [])).toBe("SYNTAX_ERROR");
  });

  it("reports a compile timeout as TIME_LIMIT_EXCEEDED and a failed compile as COMPILATION_ERROR", () => {
    const timedOut = { ...ok, exitCode: null, timedOut: true };
    expect(classifyRun({ syntaxError: false, compile: timedOut, run: null }, [])).toBe("TIME_LIMIT_EXCEEDED");
    expect(classifyRun({ syntaxError: false, compile: { ...ok, exitCode: 1 }, run: null }, [])).toBe(
      "COMPILATION_ERROR",
    );
  });

  it("checks timeout, then failure text, then exit code", () => {
    const patterns = ["failed"];
    const timedOutWithText = { exitCode: null, timedOut: true, stdout: "failed", stderr: "" };
    expect(classifyRun({ syntaxError: false, compile: null, run: timedOutWithText }, patterns)).toBe(
      "TIME_LIMIT_EXCEEDED",
    );
    const textAndCrash = { exitCode: 1, timedOut: false, stdout: "", stderr: "test failed" };
    expect(classifyRun({ syntaxError: false, compile: null, run: textAndCrash }, patterns)).toBe("WRONG_ANSWER");
    const textOnExitZero = { ...ok, stdout: "1 test failed" };
    expect(classifyRun({ syntaxError: false, compile: null, run: textOnExitZero }, patterns)).toBe("WRONG_ANSWER");
    expect(classifyRun({ syntaxError: false, compile: null, run: { ...ok, exitCode: 2 } }, patterns)).toBe(
      "RUNTIME_ERROR",
    );
    expect(classifyRun({ syntaxError: false, compile: null, run: ok }, patterns)).toBe("PASSED");
  });

  it("treats a signal death (null exit code) as RUNTIME_ERROR and a missing run as INTERNAL_ERROR", () => {
    expect(classifyRun({ syntaxError: false, compile: null, run: { ...ok, exitCode: null } }, [])).toBe(
      "RUNTIME_ERROR",
    );
    expect(classifyRun({ syntaxError: false, compile: ok, run: null }, [])).toBe("INTERNAL_ERROR");
  });
});

describe("hasFailureText", () => {
  it("looks at stdout and stderr together, case-sensitively", () => {
    expect(hasFailureText("", "AssertionError: x", ["AssertionError"])).toBe(true);
    expect(hasFailureText("fai", "led", ["failed"])).toBe(true);
    expect(hasFailureText("FAILED", "", ["failed"])).toBe(false);
  });
});
