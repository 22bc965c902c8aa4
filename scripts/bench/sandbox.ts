// Sandbox benchmark (issue: live execution): the local sandbox's per-run overhead over a bare run
// (median of 50 runs of a Python `pass` program), and batch-verification throughput on the demo
// dataset with every core working. Own database in .data/bench-sandbox. Writes docs/benchmarks.md.
//
//   npm run bench:sandbox [-- --runs 50 --no-write --json --db-port N --data-dir DIR]
import { createReadStream } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";

import type { ParsedRecord } from "@/lib/records/validate";

import { runBare } from "./bare-run";
import {
  BENCH_OPTIONS,
  childrenCpuSeconds,
  describeMachine,
  machineLine,
  selectBenchDatabase,
  startBenchRun,
  uptime,
  writeBenchmarkSection,
  writeBenchmarkSubsection,
} from "./common";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "50" },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:sandbox", options);
const SECTION = "## Sandbox overhead and batch verification (issue: live execution)";
const SCALE_OUT = "## Scale-out (issue: scale-out)";
const EFFICIENCY = "### Batch verification efficiency";

await selectBenchDatabase(options, ".data/bench-sandbox");

const { readItems, validateRecord } = await import("@/lib/records");
const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { openDatabase } = await import("@/lib/server/db/database");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { getServerVersion } = await import("@/lib/server/db/health");
const { loadDemoDatasetIfMissing } = await import("@/lib/server/imports/demo");
const { getVerificationProgress, listBatchOutcomes } = await import("@/lib/server/verification/batches");
const { closePgPool } = await import("@/lib/server/db/pool");
const { measureOverhead } = await import("@/scripts/bench/sandbox-overhead");
const { startVerification, startVerificationWorkers, VERIFY_QUEUE } = await import("@/lib/server/verification/jobs");
const { getBoss, stopBoss } = await import("@/lib/server/workers/boss");

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

/** The demo records run bare (see bare-run.ts), one after the other: demo then full test, as a worker does. */
async function runDemoBare() {
  // Straight from the demo file (the dataset's records in line order), parsed as the import parses them.
  const records: ParsedRecord[] = [];
  for await (const item of readItems(createReadStream(join("prisma", "demo", "demo.jsonl")))) {
    const parsed = "value" in item ? validateRecord(item.value) : null;
    if (parsed?.ok) records.push(parsed.record);
  }
  const started = performance.now();
  const cpuBefore = childrenCpuSeconds();
  const outcomes: string[] = [];
  for (const record of records) {
    const { language, canonicalSolution: solution } = record;
    const demo = await runBare({ language, solution, test: record.demoTestFunc });
    const full = await runBare({ language, solution, test: record.fullTestFunc });
    outcomes.push(
      demo === "unavailable" ? "unavailable" : demo === "passed" && full === "passed" ? "passed" : "failed",
    );
  }
  const count = (outcome: string) => outcomes.filter((value) => value === outcome).length;
  return {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: childrenCpuSeconds() - cpuBefore,
    total: records.length,
    passed: count("passed"),
    failed: count("failed"),
    unavailable: count("unavailable"),
  };
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
    const uptimeBefore = uptime();
    console.error("Running the demo records bare, one at a time…");
    const bare = await runDemoBare();
    console.error(`Verifying the demo dataset with ${cores} workers…`);
    const batch = await verifyDemo(cores);
    console.error("Verifying the demo dataset with one worker…");
    const serial = await verifyDemo(1);
    // Bare again at the end: the load drifts during a run, and the mean of both brackets the batches.
    console.error("Running the demo records bare again…");
    const bareAgain = await runDemoBare();
    const uptimeAfter = uptime();
    const bareSeconds = (bare.seconds + bareAgain.seconds) / 2;
    const bareCpuSeconds = (bare.cpuSeconds + bareAgain.cpuSeconds) / 2;
    // The programs alone keep bareCpu / bareWall cores busy when run one at a time, so `cores`
    // workers can go at most cores ÷ that times faster: efficiency cannot pass bareWall ÷ bareCpu.
    const ceiling = Math.min(1, bareSeconds / bareCpuSeconds);
    const progress = batch.progress;
    const minutes = batch.seconds / 60;
    const oneWorkerEfficiency = serial.seconds / (cores * batch.seconds);
    // The aim's figure (issue 41): the batch against the bare programs run one at a time, per core.
    const efficiency = bareSeconds / (cores * batch.seconds);
    const [serialOutcomes, batchOutcomes] = await Promise.all([
      outcomesOf(serial.progress.batchId),
      outcomesOf(batch.progress.batchId),
    ]);
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
      `| **efficiency: batch ÷ (bare serial × ${cores} cores)** | **${efficiency.toFixed(2)}** (aim: ≥ 0.9 of the ceiling, ${(0.9 * ceiling).toFixed(2)} here) |`,
      `| ceiling: bare wall ÷ bare CPU (the toolchains' own) | ${ceiling.toFixed(2)} (efficiency ÷ ceiling ${(efficiency / ceiling).toFixed(2)}) |`,
      `| batch ÷ (one sandboxed worker × ${cores} cores) | ${oneWorkerEfficiency.toFixed(2)} |`,
      `| runs whose outcome differs between the two | ${differing} of ${serialOutcomes.size} |`,
      `| load average (1 min) before and after | ${benchRun.load.before.toFixed(1)}, ${(await import("node:os")).loadavg()[0].toFixed(1)} |`,
      "",
      machineLine(describeMachine(postgres)),
      "",
    ].join("\n");
    const perMinute = (records: number, seconds: number) => (records / (seconds / 60)).toFixed(1);
    const efficiencySection = [
      EFFICIENCY,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:sandbox\`: the demo dataset (${progress.total} records; canonical solution against the demo test, then the full test), three ways, one after the other.`,
      '"Bare" is the same spliced programs, compiled and run by the same recipe steps with the same time limit, spawned directly in a scratch folder one at a time — no bubblewrap, prlimit or cgroup, no job queue, no database (scripts/bench/bare-run.ts).',
      "",
      "| path | wall clock | CPU of the programs (user + sys) | records/min | outcome |",
      "|---|---:|---:|---:|---|",
      `| bare, serial (before the batches) | ${bare.seconds.toFixed(1)} s | ${bare.cpuSeconds.toFixed(1)} s | ${perMinute(bare.total, bare.seconds)} | ${bare.passed} passed, ${bare.failed} failed, ${bare.unavailable} no toolchain here |`,
      `| bare, serial (after the batches) | ${bareAgain.seconds.toFixed(1)} s | ${bareAgain.cpuSeconds.toFixed(1)} s | ${perMinute(bareAgain.total, bareAgain.seconds)} | ${bareAgain.passed} passed, ${bareAgain.failed} failed, ${bareAgain.unavailable} no toolchain here |`,
      `| batch verification, ${cores} workers (sandbox, pg-boss, database) | ${batch.seconds.toFixed(1)} s | — | ${perMinute(progress.total, batch.seconds)} | ${progress.executableValid} executable-valid, ${progress.failed} failed, ${progress.unavailable} unavailable |`,
      `| batch verification, 1 worker | ${serial.seconds.toFixed(1)} s | — | ${perMinute(serial.progress.total, serial.seconds)} | ${serial.progress.executableValid} executable-valid, ${serial.progress.failed} failed, ${serial.progress.unavailable} unavailable |`,
      "",
      `**Efficiency = batch records/min ÷ (bare records/min × ${cores} cores) = ${efficiency.toFixed(2)}** (aim ≥ 0.9 of the ceiling), with the mean of the two bare runs; batch ÷ (one worker × ${cores}) = ${oneWorkerEfficiency.toFixed(2)}; bare ÷ one worker = ${(bareSeconds / serial.seconds).toFixed(2)} (the share of one worker's time the programs themselves take).`,
      `**Ceiling the toolchains' own CPU use imposes (meaningful only at a 1-minute load below the cores: a busier machine stretches the bare wall time, not its CPU) = bare wall ÷ bare CPU = ${bareSeconds.toFixed(1)} s ÷ ${bareCpuSeconds.toFixed(1)} s = ${ceiling.toFixed(2)}**: run one at a time, the programs already keep ${(bareCpuSeconds / bareSeconds).toFixed(2)} cores busy (JVMs, compilers and Node use several threads), so ${cores} workers can be at most ${(cores / (bareCpuSeconds / bareSeconds)).toFixed(2)}× faster than serial bare; efficiency ÷ ceiling = ${(efficiency / ceiling).toFixed(2)}. (CPU of sandboxed runs is not counted: bubblewrap does not hand its children's times up.)`,
      `Load: \`${uptimeBefore}\` before, \`${uptimeAfter}\` after.`,
      "",
      machineLine(describeMachine(postgres)),
      "",
    ].join("\n");
    console.log(section);
    console.log(efficiencySection);
    if (!options["no-write"]) {
      writeBenchmarkSection(SECTION, section);
      writeBenchmarkSubsection(SCALE_OUT, EFFICIENCY, efficiencySection);
    }
    benchRun.finish({
      efficiency: Number(efficiency.toFixed(3)),
      ceiling: Number(ceiling.toFixed(3)),
      overheadMs: overhead.overheadMs,
      oneWorkerEfficiency: Number(oneWorkerEfficiency.toFixed(3)),
    });
  } finally {
    await disconnectPrisma();
    await closePgPool();
    await database.stop();
  }
}

await main();
process.exit(0);
