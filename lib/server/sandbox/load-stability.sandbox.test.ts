import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import type { Language } from "@/lib/records/languages";

import { createLocalBackend } from "./local";
import { runSteadily } from "./steady";
import type { Outcome } from "./types";

// The demo dataset's records whose language has a toolchain here: both Go records (7 and 9, the ones
// a loaded batch marked "fails") and one or two of each other compiled or slow-starting language.
const LINES = [7, 9, 2, 13, 20, 4, 1, 5, 6, 8, 17, 3];
const CORES = availableParallelism();

type DemoRecord = {
  line: number;
  language: Language;
  canonical_solution: string;
  demo_test_func: string;
  full_test_func: string;
};

const records: DemoRecord[] = readFileSync(join(process.cwd(), "prisma", "demo", "demo.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((text, index) => ({ ...JSON.parse(text), line: index + 1 }))
  .filter((record: DemoRecord) => LINES.includes(record.line));

const serial = createLocalBackend({ isUnsafe: false, concurrency: 1, memoryLimitMb: 1024, workDir: null });
const loaded = createLocalBackend({ isUnsafe: false, concurrency: 2 * CORES, memoryLimitMb: 1024, workDir: null });
const status = await serial.isolation();
const runnable = (
  await Promise.all(records.map(async (record) => ((await serial.toolchain(record.language)).isFound ? record : null)))
).filter((record): record is DemoRecord => record !== null);

/** Shared runs that ended in a time limit (and were run again alone). */
let retriedAlone = 0;

/** Both tests of every record through the batch path (a time limit is retried alone). */
async function verifyAll(backend: typeof serial, inParallel: boolean): Promise<Record<string, Outcome>> {
  const counted: typeof backend.run = async (request, options) => {
    const result = await backend.run(request, options);
    if (!options?.isExclusive && result.outcome === "TIME_LIMIT_EXCEEDED") retriedAlone++;
    return result;
  };
  const jobs = runnable.flatMap((record) =>
    (["demo", "full"] as const).map((test) => async () => {
      const result = await runSteadily(
        {
          language: record.language,
          solution: record.canonical_solution,
          test: test === "demo" ? record.demo_test_func : record.full_test_func,
        },
        counted,
      );
      return [`${record.line} ${record.language} ${test}`, result.outcome] as const;
    }),
  );
  const entries = inParallel
    ? await Promise.all(jobs.map((job) => job()))
    : await jobs.reduce<Promise<(readonly [string, Outcome])[]>>(
        async (done, job) => [...(await done), await job()],
        Promise.resolve([]),
      );
  return Object.fromEntries(entries);
}

/** One CPU hog per core (`yes > /dev/null`), stopped by pid. */
function startHogs(): ChildProcess[] {
  return Array.from({ length: CORES }, () => spawn("/bin/sh", ["-c", "exec yes > /dev/null"], { stdio: "ignore" }));
}

describe.skipIf(status.problem !== null)(`verdicts under load (${status.problem ?? "sandbox ready"})`, () => {
  it("gives every demo record the same outcome at concurrency 1 and at 2 × cores with a CPU hog per core", async () => {
    expect(runnable.map((record) => record.line)).toEqual(expect.arrayContaining([7, 9]));
    const startedSerial = performance.now();
    const alone = await verifyAll(serial, false);
    const serialMs = performance.now() - startedSerial;
    const hogs = startHogs();
    let underLoad: Record<string, Outcome>;
    const startedLoaded = performance.now();
    try {
      underLoad = await verifyAll(loaded, true);
    } finally {
      for (const hog of hogs) hog.kill("SIGKILL");
    }
    const loadedMs = performance.now() - startedLoaded;
    console.log(
      `load stability: ${Object.keys(alone).length} runs; serial ${Math.round(serialMs)} ms, 2×${CORES} with ${CORES} hogs ${Math.round(loadedMs)} ms; ${retriedAlone} time limits retried alone`,
    );
    console.log(JSON.stringify({ alone, underLoad }));
    expect(underLoad).toEqual(alone);
  }, 900_000);
});
