import { describe, expect, it } from "vitest";

import { ALONE_WALL_FACTOR, stepLimits } from "./local-job";
import { inconclusiveReason, judgedAlone, runSteadily } from "./steady";
import type { Outcome, RunOptions, RunRequest, SandboxResult } from "./types";

const request: RunRequest = { language: "go", solution: "", test: "" };

function fakeRun(outcomes: Outcome[], backend: "local" | "acb" = "local") {
  const calls: RunOptions[] = [];
  const run = async (_request: RunRequest, options: RunOptions = {}) => {
    calls.push(options);
    return { outcome: outcomes[calls.length - 1], backend } as SandboxResult;
  };
  return { run, calls };
}

describe("runSteadily", () => {
  it("runs a time limit again alone and keeps the second verdict", async () => {
    const { run, calls } = fakeRun(["TIME_LIMIT_EXCEEDED", "PASSED"]);
    expect((await runSteadily(request, run)).outcome).toBe("PASSED");
    expect(calls).toEqual([{}, { isExclusive: true }]);
  });

  it("runs a person's time limit again by CPU time in one slot, not alone", async () => {
    const { run, calls } = fakeRun(["TIME_LIMIT_EXCEEDED", "PASSED"]);
    expect((await runSteadily(request, run, {}, { isInOneSlot: true })).outcome).toBe("PASSED");
    expect(calls).toEqual([{}, { isJudgedByCpuTime: true }]);
  });

  it("records a time limit that happens alone too", async () => {
    const { run, calls } = fakeRun(["TIME_LIMIT_EXCEEDED", "TIME_LIMIT_EXCEEDED"]);
    expect((await runSteadily(request, run)).outcome).toBe("TIME_LIMIT_EXCEEDED");
    expect(calls).toHaveLength(2);
  });

  it("does not repeat any other outcome, nor a remote backend's", async () => {
    for (const outcome of ["PASSED", "RUNTIME_ERROR", "WRONG_ANSWER", "COMPILATION_ERROR"] as const) {
      const { run, calls } = fakeRun([outcome]);
      await runSteadily(request, run);
      expect(calls).toHaveLength(1);
    }
    const remote = fakeRun(["TIME_LIMIT_EXCEEDED"], "acb");
    await runSteadily(request, remote.run);
    expect(remote.calls).toHaveLength(1);
  });
});

describe("stepLimits", () => {
  it("keeps the wall clock for a shared run", () => {
    expect(stepLimits(6_000, false)).toEqual({ timeoutMs: 6_000 });
  });

  it("judges a run alone by CPU seconds per process, with a generous wall clock", () => {
    expect(stepLimits(6_000, true)).toEqual({ timeoutMs: 6_000 * ALONE_WALL_FACTOR, cpuSeconds: 6 });
  });
});

describe("inconclusiveReason", () => {
  const timedOut = {
    outcome: "TIME_LIMIT_EXCEEDED",
    backend: "local",
    timedOutBy: "wall",
    runMs: 15_000,
    timeMs: 15_000,
    cpuMs: 2_400,
    loadAverage: 18.5,
  } as SandboxResult;

  it("calls a wall-clock time-out of a computing program on a busy machine inconclusive, and says why", () => {
    const why = inconclusiveReason(timedOut, 2);
    expect(why).toContain("after 15.0 s having had 2.4 s of CPU time");
    expect(why).toContain("load was 18.5 on 2 cores");
    expect(judgedAlone(timedOut, 2)).toMatchObject({ outcome: "INCONCLUSIVE", verdictNote: why });
  });

  it("keeps the time limit of a program that spent its CPU budget, waited, or ran on a quiet machine", () => {
    expect(inconclusiveReason({ ...timedOut, timedOutBy: "cpu" }, 2)).toBeNull();
    expect(inconclusiveReason({ ...timedOut, cpuMs: 100 }, 2)).toBeNull();
    expect(inconclusiveReason({ ...timedOut, loadAverage: 1.2 }, 2)).toBeNull();
    expect(inconclusiveReason({ ...timedOut, outcome: "RUNTIME_ERROR" }, 2)).toBeNull();
    expect(judgedAlone({ ...timedOut, backend: "acb" }, 2).outcome).toBe("TIME_LIMIT_EXCEEDED");
  });

  it("cannot tell without the CPU time either, on a busy machine", () => {
    expect(inconclusiveReason({ ...timedOut, cpuMs: null }, 2)).toContain("an unknown amount of CPU time");
  });
});
