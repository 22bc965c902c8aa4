import { describe, expect, it } from "vitest";

import { isJudgedInLoop, loopScript, parseLoopStatus } from "./run-loop";

const LIMITS = { timeoutMs: 4_000, cpuSeconds: 9, cpuCount: 2 };

describe("the in-sandbox run loop", () => {
  it("runs the program once per line, each with its own variables quoted, under its own wall clock", () => {
    const script = loopScript(["./test", "it's"], [{}, { SANDBOX_MUTANT: "3", OPTS: "a b'c" }], 4_000);
    expect(script).toContain(`timeout -s KILL 4.000 './test' 'it'\\''s'`);
    expect(script).toContain("verity_run 0\n");
    expect(script).toContain(`verity_run 1 'SANDBOX_MUTANT=3' 'OPTS=a b'\\''c'\n`);
    // Whatever a run left running is killed before the next one starts.
    expect(script).toContain("kill -9 -1");
  });

  it("reads status lines as index, exit status and wall time, leaving malformed lines out", () => {
    expect(parseLoopStatus("0 0 100.50 100.62\n1 134 100.62 100.70\ngarbage\n2 1 x y\n")).toEqual([
      { index: 0, exitCode: 0, wallMs: 120 },
      { index: 1, exitCode: 134, wallMs: 80 },
    ]);
  });

  it("judges a run that ended by itself well inside its limits, and no other", () => {
    expect(isJudgedInLoop({ index: 0, exitCode: 0, wallMs: 300 }, LIMITS)).toBe(true);
    // A failed assertion (SIGABRT) or a test's own failure is the program's verdict.
    expect(isJudgedInLoop({ index: 0, exitCode: 134, wallMs: 300 }, LIMITS)).toBe(true);
    expect(isJudgedInLoop({ index: 0, exitCode: 1, wallMs: 300 }, LIMITS)).toBe(true);
    // SIGKILL (the wall clock or the memory limit), SIGXCPU, SIGXFSZ: a limit's, judged alone.
    for (const exitCode of [137, 152, 153, 125, 126, 127])
      expect(isJudgedInLoop({ index: 0, exitCode, wallMs: 300 }, LIMITS)).toBe(false);
    // Near its wall clock, even passing: too near the limit to say.
    expect(isJudgedInLoop({ index: 0, exitCode: 0, wallMs: 3_700 }, LIMITS)).toBe(false);
    // A failure after long enough to have spent its CPU budget on both cores may have been the budget's.
    expect(isJudgedInLoop({ index: 0, exitCode: 1, wallMs: 3_500 }, { ...LIMITS, cpuSeconds: 4 })).toBe(false);
    expect(isJudgedInLoop({ index: 0, exitCode: 1, wallMs: 1_000 }, { ...LIMITS, cpuSeconds: 4 })).toBe(true);
  });
});
