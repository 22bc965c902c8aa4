import "server-only";

import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { createLocalBackend, type LocalBackend } from "@/lib/server/sandbox/local";

import { startBenchRun } from "./common";

export type OverheadReport = {
  runs: number;
  /** Median wall time of `/usr/bin/python3 test.py` spawned directly. */
  bareMedianMs: number;
  /** Median wall time of a full local-sandbox run of the same program (splice, job folder, cgroup, bwrap, cleanup). */
  sandboxMedianMs: number;
  overheadMs: number;
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

async function timeBare(dir: string): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    // The same interpreter the sandbox resolves (the host PATH may hold a pyenv shim or similar).
    const child = spawn("/usr/bin/python3", ["test.py"], { cwd: dir, stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", () => resolve());
  });
  return performance.now() - started;
}

/** Measures the per-run overhead of the local sandbox over a bare run of a Python `pass` program. */
export async function measureOverhead(
  options: { runs?: number; backend?: LocalBackend } = {},
): Promise<OverheadReport> {
  const runs = options.runs ?? 50;
  const backend =
    options.backend ??
    createLocalBackend({ isUnsafe: false, concurrency: availableParallelism(), memoryLimitMb: 1024, workDir: null });
  const dir = await mkdtemp(join(tmpdir(), "verity-bench-"));
  try {
    await writeFile(join(dir, "test.py"), "pass\n");
    const bare: number[] = [];
    const sandboxed: number[] = [];
    // Alternate so that drift (caches, other load) hits both series alike; one warm-up each.
    await timeBare(dir);
    await backend.run({ language: "python", solution: "pass", test: "" });
    for (let index = 0; index < runs; index++) {
      bare.push(await timeBare(dir));
      const started = performance.now();
      const result = await backend.run({ language: "python", solution: "pass", test: "" });
      sandboxed.push(performance.now() - started);
      if (result.outcome !== "PASSED") throw new Error(`sandboxed run ended ${result.outcome}: ${result.stderr}`);
    }
    const bareMedianMs = median(bare);
    const sandboxMedianMs = median(sandboxed);
    return {
      runs,
      bareMedianMs: round(bareMedianMs),
      sandboxMedianMs: round(sandboxMedianMs),
      overheadMs: round(sandboxMedianMs - bareMedianMs),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// `node --conditions=react-server --import tsx scripts/bench/sandbox-overhead.ts [runs]`
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 50);
  const benchRun = startBenchRun("sandbox-overhead", { json: true });
  benchRun.finish(await measureOverhead({ runs }));
}
