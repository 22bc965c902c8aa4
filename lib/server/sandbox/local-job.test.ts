import { describe, expect, it } from "vitest";

import { CPU_ACCOUNTING_SLACK, isCpuBudgetSpent, isolationFailure, limitFired, stepRlimits } from "./local-job";
import type { StepRun } from "./run-step";

const step: StepRun = {
  started: true,
  exitCode: 0,
  signal: null,
  timedOut: false,
  stdout: "",
  stderr: "",
  stdoutTruncated: false,
  stderrTruncated: false,
  wallMs: 1,
};

describe("limitFired", () => {
  it("names the limit that ended a run, time first", () => {
    expect(limitFired([step], null)).toBeNull();
    expect(limitFired([{ ...step, timedOut: true }], { isOomKilled: true, isPidsLimitHit: false })).toBe("time");
    expect(limitFired([{ ...step, signal: "SIGXCPU" }], null)).toBe("time");
    expect(limitFired([{ ...step, exitCode: 137 }], { isOomKilled: true, isPidsLimitHit: false })).toBe("memory");
    expect(limitFired([step], { isOomKilled: false, isPidsLimitHit: true })).toBe("processes");
    expect(limitFired([{ ...step, stdoutTruncated: true }], null)).toBe("output");
    expect(limitFired([{ ...step, signal: "SIGXFSZ" }], null)).toBe("output");
    expect(limitFired([{ ...step, exitCode: 1 }], null, true)).toBe("output");
  });
});

describe("isolationFailure", () => {
  it("says how bubblewrap failed and what it printed", () => {
    const refused = { ...step, started: false, exitCode: 1, stderr: "bwrap: setting up uid map: Permission denied\n" };
    expect(isolationFailure(refused)).toBe(
      "bubblewrap could not start the program (it exited with code 1): bwrap: setting up uid map: Permission denied",
    );
    expect(isolationFailure({ ...step, started: false, exitCode: null, timedOut: true, wallMs: 10_000 })).toBe(
      "bubblewrap could not start the program (it did not start the program within 10000 ms)",
    );
  });
});

describe("stepRlimits", () => {
  it("lets every core work for the whole timeout before RLIMIT_CPU fires", () => {
    expect(stepRlimits(5_000, 2).cpuSeconds).toBe(11);
    expect(stepRlimits(5_500, 1).cpuSeconds).toBe(7);
    expect(stepRlimits(5_000, 64).cpuSeconds).toBe(41);
    expect(stepRlimits(5_000, 2).processes).toBeGreaterThan(64);
  });
});

describe("isCpuBudgetSpent", () => {
  it("takes SIGXCPU at its word", () => {
    expect(isCpuBudgetSpent({ ...step, signal: "SIGXCPU", exitCode: 152 }, null, 5)).toBe(true);
  });

  it("names a SIGKILL or a failing exit that spent the CPU budget (Go ignores SIGXCPU; a runner outlives its child)", () => {
    const nearlyAll = 5_000 * CPU_ACCOUNTING_SLACK;
    expect(isCpuBudgetSpent({ ...step, signal: "SIGKILL", exitCode: 137 }, 6_050, 5)).toBe(true);
    expect(isCpuBudgetSpent({ ...step, exitCode: 1 }, nearlyAll, 5)).toBe(true);
    expect(isCpuBudgetSpent({ ...step, exitCode: 1 }, nearlyAll - 1, 5)).toBe(false);
  });

  it("leaves a plain kill, a quick failure and a success what they are", () => {
    expect(isCpuBudgetSpent({ ...step, signal: "SIGKILL", exitCode: 137 }, 300, 5)).toBe(false);
    expect(isCpuBudgetSpent({ ...step, signal: "SIGKILL", exitCode: 137 }, null, 5)).toBe(false);
    expect(isCpuBudgetSpent({ ...step, exitCode: 1 }, 40, 5)).toBe(false);
    expect(isCpuBudgetSpent(step, 9_000, 5)).toBe(false);
  });
});
