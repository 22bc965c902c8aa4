// Batch verification with one and with two `verity worker` processes on one database (the README's
// scale-out: more workers against the same PostgreSQL), and the job engine's overhead per item: what
// a record costs through the queue, the worker and the stored result, over the same two sandbox runs
// called directly. Python records whose tests do a fixed amount of work, in a fresh embedded
// PostgreSQL; the worker counts alternate round by round, so a change in the machine's speed
// reaches both.
//   npm run bench:workers [-- --records 40 --concurrency 1 --rounds 2 --no-write --json --db-port N --data-dir DIR]
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";

import {
  BENCH_OPTIONS,
  describeMachine,
  machineLine,
  selectBenchDatabase,
  startBenchRun,
  uptime,
  writeBenchmarkSection,
} from "./common";

const { values: options } = parseArgs({
  options: {
    records: { type: "string", default: "40" },
    concurrency: { type: "string", default: "1" },
    rounds: { type: "string", default: "2" },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:workers", options);
const RECORDS = Number(options.records);
const CONCURRENCY = Number(options.concurrency);
const ROUNDS = Number(options.rounds);
const SECTION = "## Job engine: one and two workers (issue 36)";
const DATASET = "bench-workers";
const WARM_UP = "bench-workers-warm-up";
const WARM_UP_RECORDS = 4;

const { dataDir } = await selectBenchDatabase(options, ".data/bench-workers", { fresh: true });
const isOwnDataDir = !(options["data-dir"] ?? process.env.VERITY_BENCH_DATA_DIR);

const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { openDatabase } = await import("@/lib/server/db/database");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");
const { getServerVersion } = await import("@/lib/server/db/health");
const { importRecords } = await import("@/lib/server/imports/imports");
const { createLocalBackend } = await import("@/lib/server/sandbox/local");
const { getVerificationProgress } = await import("@/lib/server/verification/batches");
const { startVerification } = await import("@/lib/server/verification/jobs");

/** A record whose tests spend a little CPU (about what a short real test does), the same for every record. */
function record(index: number) {
  const name = `work_${index}`;
  const work = "sum(i * i for i in range(200_000))";
  return {
    question: `Return x plus ${index}.`,
    canonical_solution: `def ${name}(x):\n    return x + ${index}\n`,
    demo_test_func: `${work}\nassert ${name}(1) == ${1 + index}\n`,
    full_test_func: `${work}\nassert ${name}(2) == ${2 + index}\nassert ${name}(0) == ${index}\n`,
    language: "python",
  };
}

async function* text(value: string): AsyncGenerator<string> {
  yield value;
}

type WorkerProcess = { stop(): Promise<void> };

/** Starts `verity worker` against the database and resolves once it says it drains the queues. */
async function startWorker(databaseUrl: string, index: number): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ["scripts/verity.mjs", "worker"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, VERITY_WORKER_CONCURRENCY: String(CONCURRENCY) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (let waited = 0; !output.includes("Verification worker running"); waited += 100) {
    if (child.exitCode !== null || waited > 120_000) throw new Error(`worker ${index} did not start:\n${output}`);
    await sleep(100);
  }
  return {
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Verifies every record again with `count` worker processes; the batch's wall time from its start. */
async function verifyWith(databaseUrl: string, count: number) {
  const workers = await Promise.all(Array.from({ length: count }, (_, index) => startWorker(databaseUrl, index)));
  try {
    // Untimed: a fresh process loads the modules a job needs at its first jobs.
    await verifyDataset(WARM_UP, WARM_UP_RECORDS);
    return await verifyDataset(DATASET, RECORDS);
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

/** Verifies a dataset's records again and waits for the batch to end; its wall time from its start. */
async function verifyDataset(datasetName: string, records: number): Promise<number> {
  const started = performance.now();
  const batch = await startVerification({ actor: SYSTEM_ACTOR.cli, datasetName, force: true });
  let progress = await getVerificationProgress({ actor: SYSTEM_ACTOR.cli, batchId: batch.batchId });
  while (progress.status === "RUNNING") {
    await sleep(100);
    progress = await getVerificationProgress({ actor: SYSTEM_ACTOR.cli, batchId: batch.batchId });
  }
  const seconds = (performance.now() - started) / 1000;
  if (progress.executableValid !== records)
    throw new Error(`expected ${records} records of ${datasetName} to pass, got ${JSON.stringify(progress)}`);
  return seconds;
}

/** The same two runs per record called on the sandbox directly, one record after another (`CONCURRENCY` at once). */
async function runDirectly(): Promise<number> {
  const backend = createLocalBackend({ isUnsafe: false, concurrency: CONCURRENCY, memoryLimitMb: 1024, workDir: null });
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < RECORDS; index = next++) {
      const { canonical_solution: solution, demo_test_func, full_test_func } = record(index);
      for (const test of [demo_test_func, full_test_func]) {
        const result = await backend.run({ language: "python", solution, test });
        if (result.outcome !== "PASSED") throw new Error(`record ${index}: ${result.outcome}\n${result.stderr}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return (performance.now() - started) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const perMinute = (seconds: number) => (RECORDS / seconds) * 60;

async function main(): Promise<void> {
  const database = await openDatabase();
  try {
    const postgres = await getServerVersion();
    for (const [datasetName, count] of [
      [DATASET, RECORDS],
      [WARM_UP, WARM_UP_RECORDS],
    ] as const)
      await importRecords({
        actor: SYSTEM_ACTOR.cli,
        datasetName,
        source: text(`${Array.from({ length: count }, (_, index) => JSON.stringify(record(index))).join("\n")}\n`),
        skipInvalid: false,
        origin: "cli",
      });
    const uptimeBefore = uptime();
    const direct: number[] = [];
    const seconds: Record<1 | 2, number[]> = { 1: [], 2: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating which goes first, so neither always meets the machine warmer.
      for (const count of round % 2 === 0 ? ([1, 2] as const) : ([2, 1] as const)) {
        console.error(`Round ${round + 1}: ${count} worker process${count > 1 ? "es" : ""}…`);
        seconds[count].push(await verifyWith(database.url, count));
      }
      console.error(`Round ${round + 1}: the same runs on the sandbox directly…`);
      direct.push(await runDirectly());
    }
    const uptimeAfter = uptime();
    const one = median(seconds[1]);
    const two = median(seconds[2]);
    const bare = median(direct);
    // One worker process runs CONCURRENCY records at once, as runDirectly does: what is left over is
    // the engine's (queueing, fetching the job, reading the record and its settings, storing the
    // result and its counters), spread over the records.
    const overheadMs = ((one - bare) / RECORDS) * 1000;
    const section = [
      SECTION,
      "",
      `\`npm run bench:workers -- --records ${RECORDS} --concurrency ${CONCURRENCY} --rounds ${ROUNDS}\` on ${new Date().toISOString().slice(0, 10)}: ${RECORDS} Python records (each test sums 200,000 squares, then asserts), verified again (\`force\`) by one and by two \`verity worker\` processes of concurrency ${CONCURRENCY} against the same embedded PostgreSQL ${postgres}, alternating, each set of processes warmed up on ${WARM_UP_RECORDS} other records first; medians of ${ROUNDS} rounds, each timed from the batch's start to its end.`,
      "",
      "| | wall | records/min |",
      "|---|---:|---:|",
      `| 1 worker process | ${one.toFixed(1)} s | ${perMinute(one).toFixed(1)} |`,
      `| 2 worker processes | ${two.toFixed(1)} s | ${perMinute(two).toFixed(1)} |`,
      `| the same runs on the sandbox directly (no queue, no database), ${CONCURRENCY} at once | ${bare.toFixed(1)} s | ${perMinute(bare).toFixed(1)} |`,
      "",
      `Two workers ÷ one: **${(one / two).toFixed(2)}×**. The job engine's overhead per record (one worker's wall less the direct runs', over ${RECORDS} records): **${overheadMs.toFixed(0)} ms**.`,
      "",
      machineLine(describeMachine(postgres)),
      `Load: ${uptimeBefore} before, ${uptimeAfter} after.`,
      "",
    ].join("\n");
    console.log(section);
    if (!options["no-write"]) writeBenchmarkSection(SECTION, section);
    benchRun.finish({
      oneWorker: { seconds: Number(one.toFixed(2)), recordsPerMinute: Number(perMinute(one).toFixed(1)) },
      twoWorkers: { seconds: Number(two.toFixed(2)), recordsPerMinute: Number(perMinute(two).toFixed(1)) },
      direct: { seconds: Number(bare.toFixed(2)) },
      speedup: Number((one / two).toFixed(3)),
      overheadPerRecordMs: Number(overheadMs.toFixed(1)),
    });
  } finally {
    await disconnectPrisma();
    await closePgPool();
    await database.stop();
    if (isOwnDataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
