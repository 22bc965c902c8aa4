// Sandbox benchmark (issue: live execution): the local sandbox's per-run overhead over a bare run
// (median of 50 runs of a Python `pass` program), and batch-verification throughput on the demo
// dataset with every core working. Own database in .data/bench-sandbox. Writes docs/benchmarks.md.
//
//   npm run bench:sandbox [-- --runs 50 --no-write]
import { createReadStream } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";

import { describeMachine, machineLine, writeBenchmarkSection } from "./common";

const { values: options } = parseArgs({ options: { runs: { type: "string", default: "50" }, "no-write": { type: "boolean", default: false } } });
const SECTION = "## Sandbox overhead and batch verification (issue: live execution)";

process.env.VERITY_DATA_DIR = ".data/bench-sandbox";
process.env.VERITY_DB_PORT = "54419";
delete process.env.DATABASE_URL;

const { openDatabase } = await import("@/lib/server/db/database");
const { importRecords } = await import("@/lib/server/db/imports");
const { disconnectPrisma, prisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");
const { measureOverhead } = await import("@/lib/server/sandbox/bench-overhead");
const { getVerificationProgress, startVerification, startVerificationWorkers } = await import("@/lib/server/jobs/verification");
const { stopBoss } = await import("@/lib/server/jobs/boss");

async function main(): Promise<void> {
  const database = await openDatabase();
  try {
    const postgres = (await prisma().$queryRaw<{ server_version: string }[]>`SHOW server_version`)[0].server_version;
    console.error(`Measuring the per-run overhead (${options.runs} runs)…`);
    const overhead = await measureOverhead({ runs: Number(options.runs) });

    if ((await prisma().dataset.count({ where: { name: "demo" } })) === 0) {
      await importRecords({ actor: null, datasetName: "demo", source: createReadStream(join(process.cwd(), "prisma", "demo", "demo.jsonl")), skipInvalid: false, origin: "cli" });
    }
    console.error("Verifying the demo dataset…");
    const started = performance.now();
    const batch = await startVerification({ actor: null, datasetName: "demo", force: true });
    await startVerificationWorkers();
    let progress = await getVerificationProgress({ actor: null, batchId: batch.batchId });
    while (progress.status === "RUNNING") {
      await sleep(250);
      progress = await getVerificationProgress({ actor: null, batchId: batch.batchId });
    }
    const minutes = (performance.now() - started) / 60_000;
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
      `| batch verification of the demo dataset (${progress.total} records, demo + full test each, ${availableParallelism()} workers) | ${(progress.total / minutes).toFixed(1)} records/min (${(minutes * 60).toFixed(1)} s; ${progress.executableValid} executable-valid, ${progress.failed} failed, ${progress.unavailable} unavailable) |`,
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
