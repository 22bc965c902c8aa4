// The end of `npm test` (scripts/test-summary.mjs), run as test.sh runs it, on reports written here:
// each stage's time against its budget, the slowest files per tier, and the exit status.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "test-summary-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function write(name: string, content: unknown): string {
  const path = join(folder, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

function summary(...args: string[]): { status: number | null; out: string; err: string } {
  const run = spawnSync(process.execPath, ["scripts/test-summary.mjs", ...args], { encoding: "utf8" });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

type VitestFile = { name: string; startTime: number; endTime: number };

function vitestReport(files: VitestFile[], { startTime = 0, failed = 0 } = {}) {
  return {
    startTime,
    numPassedTests: files.length - failed,
    numFailedTests: failed,
    numPendingTests: 0,
    numTodoTests: 0,
    testResults: files.map((file) => ({ ...file, assertionResults: [], status: "passed", message: "" })),
  };
}

/** A file's line in a "Slowest files" list: its seconds and its name. */
const slowestLines = (out: string, tier: string) =>
  out
    .split(`Slowest files, ${tier} `)[1]
    .split("\n\n")[0]
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "")
    .map((line) => line.trim().split(/\s+s\s+/));

describe("the suite's summary", () => {
  it("prints each stage's time beside its budget and passes while every stage is within 1.5 × its budget", () => {
    const stages = write("stages.tsv", "ESLint\t90\t100\nVitest: integration\t1500\t1000\n");
    const { status, out } = summary("--stages", stages);
    expect(out).toMatch(/ESLint\s+90 s of 100 s\n/);
    expect(out).toMatch(/Vitest: integration\s+1500 s of 1000 s\n/);
    expect(out).toMatch(/all stages\s+1590 s/);
    expect(status).toBe(0);
  });

  it("shows a stage's lanes under it, without a budget, and leaves them out of the total", () => {
    const stages = write("stages.tsv", "Static checks\t80\t500\nESLint\t74\t-\nTypeScript\t79\t-\nCluster\t60\t600\n");
    const { status, out } = summary("--stages", stages);
    expect(out).toMatch(/Static checks\s+80 s of 500 s\n\s+lane: ESLint\s+74 s\n\s+lane: TypeScript\s+79 s\n/);
    expect(out).toMatch(/all stages\s+140 s/);
    expect(status).toBe(0);
  });

  it("fails loudly, naming the stage, when a stage runs more than 50% over its budget", () => {
    const stages = write("stages.tsv", "ESLint\t90\t100\nPlaywright e2e\t1501\t1000\n");
    const { status, out, err } = summary("--stages", stages);
    expect(out).toMatch(/Playwright e2e\s+1501 s of 1000 s\s+OVER BUDGET/);
    expect(out).not.toMatch(/ESLint.*OVER BUDGET/);
    expect(err).toContain("Playwright e2e took 1501 s, more than 1.5 × its budget of 1000 s");
    expect(status).toBe(1);
  });

  it("lists the 15 slowest files of each tier, slowest first, from the Vitest reports", () => {
    const unit = Array.from({ length: 20 }, (_, i) => ({
      name: `${process.cwd()}/lib/unit-${i}.test.ts`,
      startTime: 1000,
      endTime: 1000 + (i + 1) * 100,
    }));
    const sandbox = [{ name: `${process.cwd()}/lib/run.sandbox.test.ts`, startTime: 1000, endTime: 9000 }];
    const report = write("vitest.json", vitestReport([...unit, ...sandbox]));
    const { status, out } = summary(report);
    const lines = slowestLines(out, "unit");
    expect(lines).toHaveLength(15);
    expect(lines[0]).toEqual(["2.0", "lib/unit-19.test.ts"]);
    expect(lines[14]).toEqual(["0.6", "lib/unit-5.test.ts"]);
    expect(slowestLines(out, "sandbox")).toEqual([["8.0", "lib/run.sandbox.test.ts"]]);
    expect(out).toContain("Tests: 21 passed, 0 failed, 0 skipped");
    expect(status).toBe(0);
  });

  it("counts a serial tier's imports and hooks in each file: from the end of the file before", () => {
    // Files one at a time: the second's first test starts 3 s after the first file's last test ended.
    const files = [
      { name: `${process.cwd()}/lib/a.int.test.ts`, startTime: 2000, endTime: 5000 },
      { name: `${process.cwd()}/lib/b.int.test.ts`, startTime: 8000, endTime: 9000 },
    ];
    const report = write("vitest-integration.json", vitestReport(files, { startTime: 1000 }));
    const { out } = summary(report);
    expect(out).toContain("Slowest files, integration (embedded PostgreSQL 18) (2 files, 8.0 s in all; with imports");
    expect(slowestLines(out, "integration (embedded PostgreSQL 18)")).toEqual([
      ["4.0", "lib/a.int.test.ts"],
      ["4.0", "lib/b.int.test.ts"],
    ]);
  });

  it("sums each Playwright spec file's test runs, and fails when a test failed", () => {
    const result = (duration: number) => ({ duration });
    const report = write("playwright.json", {
      stats: { expected: 2, unexpected: 1, flaky: 0, skipped: 0 },
      suites: [
        {
          file: "slow.spec.ts",
          specs: [{ file: "slow.spec.ts", tests: [{ results: [result(4000)] }] }],
          suites: [{ file: "slow.spec.ts", specs: [{ file: "slow.spec.ts", tests: [{ results: [result(3000)] }] }] }],
        },
        { file: "quick.spec.ts", specs: [{ file: "quick.spec.ts", tests: [{ results: [result(500)] }] }] },
      ],
    });
    const { status, out } = summary(report);
    expect(slowestLines(out, "e2e")).toEqual([
      ["7.0", "slow.spec.ts"],
      ["0.5", "quick.spec.ts"],
    ]);
    expect(out).toContain("Tests: 2 passed, 1 failed, 0 skipped");
    expect(status).toBe(1);
  });
});
