// Critic run throughput against the fake OpenAI-compatible endpoint (lib/testing/fake-openai.ts):
// 8 requests at once, each answered after 200 ms, so the ceiling is 8 / 0.2 s = 40 records/s. Runs
// the worker's loop (processCriticRun) over a fresh dataset in its own embedded PostgreSQL, so the
// figure includes rendering each prompt, parsing each reply and storing each result with its counters.
//   npm run bench:critic-run [-- --records 400 --concurrency 8 --delay-ms 200 --runs 3 --no-write --json
//     --db-port N --data-dir DIR]
import { rmSync } from "node:fs";
import { parseArgs } from "node:util";

import { criticAnswer, startFakeOpenAI } from "@/lib/testing/fake-openai";

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
    records: { type: "string", default: "400" },
    concurrency: { type: "string", default: "8" },
    "delay-ms": { type: "string", default: "200" },
    runs: { type: "string", default: "3" },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:critic-run", options);
const RECORDS = Number(options.records);
const CONCURRENCY = Number(options.concurrency);
const DELAY_MS = Number(options["delay-ms"]);
const RUNS = Number(options.runs);
const SECTION = "## Critic run throughput (fake endpoint)";

// A fresh folder each run (removed at the end unless given), so two runs at once never share one.
const { dataDir } = await selectBenchDatabase(options, ".data/bench-critic-run", { fresh: true });
const isOwnDataDir = !(options["data-dir"] ?? process.env.VERITY_BENCH_DATA_DIR);
if (!isOwnDataDir) rmSync(dataDir, { recursive: true, force: true });

const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { openDatabase } = await import("@/lib/server/db/database");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { importRecords } = await import("@/lib/server/imports/imports");
const { openCriticRun } = await import("@/lib/server/critics/open-critic-run");
const { saveCritic } = await import("@/lib/server/critics/save-critic");
const { getCriticRunProgress } = await import("@/lib/server/critics/get-critic-run-progress");
const { processCriticRun } = await import("@/lib/server/critics/run");
const { saveCriticSchema } = await import("@/lib/validation/critics");
const { callChatCompletion, DEFAULT_RETRY } = await import("@/lib/server/critics/endpoint");

async function* text(value: string): AsyncGenerator<string> {
  yield value;
}

const database = await openDatabase();
const fake = await startFakeOpenAI(({ prompt }) => ({
  delayMs: DELAY_MS,
  content: criticAnswer(prompt.includes("odd") ? { pass: false, failedRules: ["Other Issues"] } : { pass: true }),
}));
const rows: string[] = [];
// The same number of requests through the HTTP client alone, `CONCURRENCY` at a time: what this
// machine's loopback round trips allow before any prompt, parse or database write.
async function clientAloneRecordsPerSecond(): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < RECORDS)
        await callChatCompletion(
          {
            baseUrl: fake.baseUrl,
            apiKey: null,
            model: "fake",
            temperature: 0,
            maxTokens: 1024,
            prompt: "odd",
            timeoutMs: 30_000,
          },
          { retry: DEFAULT_RETRY },
        );
    }),
  );
  return RECORDS / ((performance.now() - started) / 1000);
}
let clientAlone = 0;
const recordsPerSecond: number[] = [];
try {
  clientAlone = await clientAloneRecordsPerSecond();
  console.error(`client alone: ${clientAlone.toFixed(1)} requests/s`);
  for (let run = 0; run < RUNS; run++) {
    const dataset = `bench-critic-${run}`;
    const lines = Array.from({ length: RECORDS }, (_, index) =>
      JSON.stringify({
        question: `Write \`f${run}_${index}(x)\` returning x (${index % 2 ? "odd" : "even"}).`,
        canonical_solution: `def f${run}_${index}(x):\n    return x\n`,
        demo_test_func: `assert f${run}_${index}(1) == 1\n`,
        full_test_func: `assert f${run}_${index}(2) == 2\n`,
        language: "python",
      }),
    );
    await importRecords({
      actor: SYSTEM_ACTOR.cli,
      datasetName: dataset,
      source: text(`${lines.join("\n")}\n`),
      skipInvalid: false,
      origin: "cli",
    });
    const criticName = `bench-${run}`;
    await saveCritic({
      actor: SYSTEM_ACTOR.cli,
      input: saveCriticSchema.parse({
        name: criticName,
        baseUrl: fake.baseUrl,
        model: "fake",
        concurrency: CONCURRENCY,
      }),
    });
    const start = await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName, datasetName: dataset });
    const started = performance.now();
    const outcome = await processCriticRun({ runId: start.runId, budgetMs: 3_600_000 });
    const seconds = (performance.now() - started) / 1000;
    const progress = await getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: start.runId });
    if (outcome !== "finished" || progress.done !== RECORDS)
      throw new Error(`run ${run} ended ${outcome} at ${progress.done}`);
    recordsPerSecond.push(RECORDS / seconds);
    rows.push(
      `| ${run + 1} | ${RECORDS} | ${seconds.toFixed(2)} | ${(RECORDS / seconds).toFixed(1)} | ${(RECORDS / seconds / clientAlone).toFixed(2)} | ${fake.maxInFlight()} | ${progress.pass}/${progress.fail} |`,
    );
    console.error(rows.at(-1));
  }
} finally {
  await fake.close();
  await disconnectPrisma();
  await database.stop();
  if (isOwnDataDir) rmSync(dataDir, { recursive: true, force: true });
}

const ceiling = CONCURRENCY / (DELAY_MS / 1000);
const section = [
  SECTION,
  "",
  `\`npm run bench:critic-run\`, ${new Date().toISOString().slice(0, 10)}. ${machineLine(describeMachine("18 (embedded)"))} 1-minute load ${benchRun.load.before.toFixed(2)} at the start; at the end \`${uptime()}\`.`,
  "",
  `${RECORDS} Python records per run, a critic with ${CONCURRENCY} requests at once against the fake endpoint answering each after ${DELAY_MS} ms (ceiling ${ceiling} records/s). The worker's loop end to end: prompt rendering, HTTP, parsing, and one transaction per result (result row plus run counters).`,
  "",
  `The HTTP client alone, the same ${RECORDS} requests ${CONCURRENCY} at a time against the same fake with no prompt, parse or write: ${clientAlone.toFixed(1)} requests/s — the loopback round trip on this machine adds to the 200 ms reply, so this, not ${ceiling}, is the ceiling the worker can reach; "of client alone" is the worker's share of it.`,
  "",
  "| run | records | seconds | records/s | of client alone | most requests at once | pass/fail |",
  "|---|---|---|---|---|---|---|",
  ...rows,
  "",
].join("\n");
if (!options["no-write"]) writeBenchmarkSection(SECTION, section);
console.log(section);
benchRun.finish({
  recordsPerSecond: recordsPerSecond.map((rate) => Number(rate.toFixed(1))),
  clientAloneRequestsPerSecond: Number(clientAlone.toFixed(1)),
  ceiling,
});
process.exit(0);
