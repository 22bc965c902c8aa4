// Issue 35's fault test: clean records checked by every kind of evidence run while CPU hogs hold
// every core. The machine's load may make a verdict INCONCLUSIVE; it may never make a clean record
// fail, look flaky, leave its mutants stillborn by time-outs, or go unsolved.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Language } from "@/lib/records/languages";
import { analyseMutants, repeatTests } from "@/lib/server/evidence/jobs";
import { flakyVerdict } from "@/lib/evidence/flaky";

import { createLocalBackend } from "./local";
import { runSteadily } from "./steady";

const CORES = availableParallelism();

type DemoRecord = {
  line: number;
  language: Language;
  canonical_solution: string;
  demo_test_func: string;
  full_test_func: string;
};

// The demo's first Python and first Go record: an interpreted language and the one whose `go test`
// builds inside the run step (the records a busy machine used to mark "fails").
const demo: DemoRecord[] = readFileSync(join(process.cwd(), "prisma", "demo", "demo.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((text, index) => ({ ...JSON.parse(text), line: index + 1 }));
const picked = (["python", "go"] as const).map((language) => demo.find((record) => record.language === language)!);

const backend = createLocalBackend({ isUnsafe: false, concurrency: 2 * CORES, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();
const records = (
  await Promise.all(picked.map(async (record) => ((await backend.toolchain(record.language)).isFound ? record : null)))
).filter((record): record is DemoRecord => record !== null);

const CLEAN = ["PASSED", "INCONCLUSIVE"];
let hogs: ChildProcess[] = [];

beforeAll(() => {
  // Two hogs per core: every core saturated, as in the load of 18–33 on 2 cores.
  hogs = Array.from({ length: 2 * CORES }, () => spawn("/bin/sh", ["-c", "exec yes > /dev/null"], { stdio: "ignore" }));
});

afterAll(() => {
  for (const hog of hogs) hog.kill("SIGKILL");
});

const toProbe = (record: DemoRecord) => ({
  id: record.line,
  language: record.language,
  canonicalSolution: record.canonical_solution,
  demoTestFunc: record.demo_test_func,
  fullTestFunc: record.full_test_func,
  executableValid: null,
});

describe.skipIf(status.problem !== null)(
  `clean records on a saturated machine (${status.problem ?? "sandbox ready"})`,
  () => {
    it("checks both demo records (Python and Go)", () => {
      expect(records.map((record) => record.language)).toEqual(["python", "go"]);
    });

    it.each(records.map((record) => [record.language, record] as const))(
      "%s: verification and solver runs pass or are inconclusive, never fail",
      async (_language, record) => {
        // Batch verification and solver runs share this path (lib/server/verification/queue.ts).
        const runs = await Promise.all(
          [record.demo_test_func, record.full_test_func].map((test) =>
            runSteadily({ language: record.language, solution: record.canonical_solution, test }, backend.run),
          ),
        );
        for (const run of runs)
          expect(CLEAN, `${run.outcome}: ${run.verdictNote ?? run.stderr}`).toContain(run.outcome);
      },
      600_000,
    );

    it.each(records.map((record) => [record.language, record] as const))(
      "%s: the flaky check never calls it flaky",
      async (_language, record) => {
        const outcomes = await repeatTests(toProbe(record), 2, backend.run);
        expect(flakyVerdict(outcomes), outcomes.join(", ")).not.toBe(true);
        for (const pair of outcomes) for (const outcome of pair.split("/")) expect(CLEAN).toContain(outcome);
      },
      600_000,
    );

    it.each(records.map((record) => [record.language, record] as const))(
      "%s: mutation analysis measures, with no mutant stillborn by a time-out the load could explain",
      async (_language, record) => {
        const result = await analyseMutants(toProbe(record), 3, { run: backend.run, runSwitched: backend.runSwitched });
        if (result.notApplicable) expect(result.notApplicable).toMatch(/inconclusive/);
        // The Go record came out 8 of 8 stillborn on a busy machine: its time-outs were the load's.
        expect(result.generated, "mutants generated").toBeGreaterThan(0);
        expect(result.stillborn, JSON.stringify(result.mutants)).toBeLessThan(result.generated);
        expect(result.viable + result.stillborn + (result.inconclusive ?? 0)).toBe(result.generated);
      },
      900_000,
    );
  },
);
