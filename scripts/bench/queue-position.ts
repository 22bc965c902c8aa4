// How long a batch's place in its queue takes to read (jobsAhead, read on every progress poll of a
// running verification) with a long queue: --jobs queued for other batches at both priorities, some
// of them running, then the batch's own --own jobs behind them. The jobs go to a queue of their own,
// removed at the end. Prints; writes nothing.
//
//   node scripts/run-ts.mjs scripts/bench/queue-position.ts [--jobs 100000 --own 1000 --runs 20]
//     [--database-url URL | --db-port N --data-dir DIR] [--json]
import { parseArgs } from "node:util";

import { BENCH_OPTIONS, chooseBenchDatabase, ms, percentile, startBenchRun } from "./common";
import { time } from "./queue-common";

const { values: options } = parseArgs({
  options: {
    jobs: { type: "string", default: "100000" },
    own: { type: "string", default: "1000" },
    runs: { type: "string", default: "20" },
    "database-url": { type: "string" },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:queue-position", options);
const [JOBS, OWN, RUNS] = [options.jobs, options.own, options.runs].map(Number);
if (![JOBS, OWN, RUNS].every((value) => Number.isInteger(value) && value > 0))
  throw new Error("--jobs, --own and --runs must be positive integers");
await chooseBenchDatabase(options["database-url"], options, ".data/bench-queue-scale");

const { openDatabase } = await import("@/lib/server/db/database");
const { getBoss, stopBoss } = await import("@/lib/server/workers/boss");
const { jobsAhead } = await import("@/lib/server/workers/queue-position");
const { JOB_PRIORITY } = await import("@/lib/server/workers/priority");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");

const CHUNK = 5_000;
const database = await openDatabase({ log: (message) => console.error(message) });
const queue = `bench-position-${Date.now().toString(36)}`;
try {
  const boss = await getBoss();
  await boss.createQueue(queue);
  for (let start = 0; start < JOBS; start += CHUNK) {
    await boss.insert(
      Array.from({ length: Math.min(CHUNK, JOBS - start) }, (_, n) => ({
        name: queue,
        data: { batchId: `other-${(start + n) % 50}` },
        priority: (start + n) % 3 === 0 ? JOB_PRIORITY.person : JOB_PRIORITY.background,
      })),
    );
  }
  const running = await boss.fetch(queue, { batchSize: 2 });
  await boss.insert(
    Array.from({ length: OWN }, () => ({ name: queue, data: { batchId: "ours" }, priority: JOB_PRIORITY.background })),
  );
  const times: number[] = [];
  let ahead = 0;
  for (let run = 0; run < RUNS + 3; run++) {
    const measured = await time(() => jobsAhead({ queue, batchId: "ours" }));
    ahead = measured.value;
    if (run >= 3) times.push(measured.ms);
  }
  console.log(
    `${JOBS.toLocaleString("en-US")} jobs of other batches (2 running), ${OWN.toLocaleString("en-US")} of ours behind them: ` +
      `${ahead.toLocaleString("en-US")} ahead; jobsAhead over ${RUNS} runs after 3: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`,
  );
  benchRun.finish({ jobsAhead: { p50: ms(percentile(times, 50)), p95: ms(percentile(times, 95)) }, ahead, jobs: JOBS });
  // A queue is removed only once empty: the waiting jobs, then the two taken.
  await boss.purgeQueue(queue);
  await boss.deleteJob(
    queue,
    running.map((job) => job.id),
  );
  await boss.deleteQueue(queue);
} finally {
  await stopBoss();
  await disconnectPrisma();
  await closePgPool();
  await database.stop();
}
