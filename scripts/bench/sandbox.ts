// Sandbox benchmark (issue: live execution): the local sandbox's per-run overhead over a bare run
// (median of 50 runs of a Python `pass` program), and batch-verification throughput on the demo
// dataset with every core working. Own database in .data/bench-sandbox. Writes docs/benchmarks.md.
//
//   npm run bench:sandbox [-- --runs 50 --no-write]
import { availableParallelism } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";

import { describeMachine, machineLine, writeBenchmarkSection } from "./common";

const { values: options } = parseArgs({ options: { runs: { type: "string", default: "50" }, "no-write": { type: "boolean", default: false } } });
const SECTION = "## Sandbox overhead and batch verification (issue: live execution)";

process.env.VERITY_DATA_DIR = ".data/bench-sandbox";
process.env.VERITY_DB_PORT = "54419";
delete process.env.DATABASE_URL;

const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { openDatabase } = await import("@/lib/server/db/database");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { getServerVersion } = await import("@/lib/server/db/health");
const { loadDemoDatasetIfMissing } = await import("@/lib/server/db/demo");
const { getVerificationProgress, listBatchOutcomes } = await import("@/lib/server/db/verification");
const { closePgPool } = await import("@/lib/server/db/pool");
const { measureOverhead } = await import("@/lib/server/sandbox/bench-overhead");
const { startVerification, startVerificationWorkers, VERIFY_QUEUE } = await import("@/lib/server/jobs/verification");
const { getBoss, stopBoss } = await import("@/lib/server/jobs/boss");

/** Verifies the whole demo dataset again with `workers` workers; its wall time and counters. */
async function verifyDemo(workers: number) {
  const started = performance.now();
  const batch = await startVerification({ actor: SYSTEM_ACTOR.cli, datasetName: "demo", force: true });
  await startVerificationWorkers(workers);
  let progress = await getVerificationProgress({ actor: SYSTEM_ACTOR.cli, batchId: batch.batchId });
  while (progress.status === "RUNNING") {
    await sleep(250);
    progress = await getVerificationProgress({ actor: SYSTEM_ACTOR.cli, batchId: batch.batchId });
  }
  await (await getBoss()).offWork(VERIFY_QUEUE);
  return { seconds: (performance.now() - started) / 1000, progress };
}

/** The outcome of every demo record in a batch, keyed by line, to compare two batches. */
async function outcomesOf(batchId: string): Promise<Map<number, string>> {
  const runs = await listBatchOutcomes({ actor: SYSTEM_ACTOR.cli, batchId });
  return new Map(runs.map((run) => [run.line * 10 + (run.kind === "DEMO" ? 0 : 1), run.outcome]));
}

async function main(): Promise<void> {
  const database = await openDatabase();
  try {
    const postgres = await getServerVersion();
    console.error(`Measuring the per-run overhead (${options.runs} runs)…`);
    const overhead = await measureOverhead({ runs: Number(options.runs) });

    await loadDemoDatasetIfMissing({ actor: SYSTEM_ACTOR.cli });
    const cores = availableParallelism();
    console.error("Verifying the demo dataset with one worker…");
    const serial = await verifyDemo(1);
    console.error(`Verifying the demo dataset with ${cores} workers…`);
    const batch = await verifyDemo(cores);
    const progress = batch.progress;
    const minutes = batch.seconds / 60;
    const efficiency = serial.seconds / (cores * batch.seconds);
    const [serialOutcomes, batchOutcomes] = await Promise.all([outcomesOf(serial.progress.batchId), outcomesOf(batch.progress.batchId)]);
    const differing = [...serialOutcomes].filter(([key, outcome]) => batchOutcomes.get(key) !== outcome).length;
    await stopBoss();

    const section = [
      SECTION,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:sandbox\` (bubblewrap, cgroup limits as in docs/sandbox.md).`,
      "",
      "| measure | value |",
      "|---|---|",
      `| Python \`pass\`, bare \`/usr/bin/python3\` (median of ${overhead.runs}) | ${overhead.bareMedianMs} ms |`,
      `| the same in the local sandbox (median of ${overhead.runs}) | ${overhead.sandboxMedianMs} ms |`,
      `| **overhead per run** | **${overhead.overheadMs} ms** (aim: ≤ 30 ms) |`,
      `| batch verification of the demo dataset (${progress.total} records, demo + full test each, ${cores} workers) | ${(progress.total / minutes).toFixed(1)} records/min (${batch.seconds.toFixed(1)} s; ${progress.executableValid} executable-valid, ${progress.failed} failed, ${progress.unavailable} unavailable here) |`,
      `| the same with one worker | ${(serial.progress.total / (serial.seconds / 60)).toFixed(1)} records/min (${serial.seconds.toFixed(1)} s) |`,
      `| **batch ÷ (serial × ${cores} cores)** | **${efficiency.toFixed(2)}** (aim: ≥ 0.8) |`,
      `| runs whose outcome differs between the two | ${differing} of ${serialOutcomes.size} |`,
      `| load average (1 min) at the end | ${(await import("node:os")).loadavg()[0].toFixed(1)} |`,
      "",
      machineLine(describeMachine(postgres)),
      "",
    ].join("\n");
    console.log(section);
    if (!options["no-write"]) writeBenchmarkSection(SECTION, section);
  } finally {
    await disconnectPrisma();
    await closePgPool();
    await database.stop();
  }
}

await main();
process.exit(0);
