// Agreement benchmark (issue 21): the agreement page's data calls, in-process, one at a time, on the
// database of bench:review (review-data.ts: 100,000 items, 300,000 labels, overlap 3). Times each
// and how far one request raises the process's RSS. Writes docs/benchmarks.md.
//
//   npm run bench:agreement [-- --requests 10 --no-write --json --db-port N --data-dir DIR]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";

import pg from "pg";

import {
  BENCH_OPTIONS,
  describeMachine,
  machineLine,
  ms,
  percentile,
  startBenchRun,
  uptime,
  writeBenchmarkSection,
} from "./common";
import {
  ensureReviewData,
  MEASURED_HEADER,
  measuredRow,
  measureRequests,
  selectBenchQueueDatabase,
} from "./review-data";

const { values: options } = parseArgs({
  options: {
    requests: { type: "string", default: "10" },
    "warm-up": { type: "string", default: "2" },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
/** A change log as long as the campaign's labels: what the log would hold if no count ever compacted it. */
const LONG_LOG_ROWS = 300_000;
const SECTION = "## Agreement page at 100k items / 300k labels (issue 21)";

const benchRun = startBenchRun("bench:agreement", options);
await selectBenchQueueDatabase(options);

const { openDatabase } = await import("@/lib/server/db/database");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const pages = await import("./review-pages");

/**
 * Fills the campaign's change log with rows of transactions that finished before the kept count
 * (below every snapshot's xmin, so visible to the next count), changes one label (so the kept count
 * is behind: the synthetic rows alone are all seen by it), then times the page's read of the kept
 * count and the exact read that counts and compacts the log.
 */
async function measureLongLog(
  client: pg.Client,
  campaignId: string,
  {
    change,
    readPage,
    readExact,
  }: { change: () => Promise<unknown>; readPage: () => Promise<unknown>; readExact: () => Promise<unknown> },
): Promise<{ rows: number; pageMs: number; countMs: number; rowsAfter: number }> {
  const xminNow = async () =>
    Number(
      (await client.query<{ xmin: string }>("SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin")).rows[0]
        .xmin,
    );
  // The rows need ids of transactions that really ended; a fresh database has used few, so write
  // one row per subtransaction (each takes an id) until there are enough.
  const missing = LONG_LOG_ROWS + 3 - (await xminNow());
  if (missing > 0)
    await client.query(`DO $$ BEGIN
      CREATE TEMP TABLE spent_ids (n int);
      FOR i IN 1..${missing} LOOP BEGIN INSERT INTO spent_ids VALUES (i); EXCEPTION WHEN others THEN NULL; END; END LOOP;
      DROP TABLE spent_ids;
    END $$`);
  const xmin = await xminNow();
  const upTo = Number(xmin) - 1;
  const from = Math.max(3, upTo - LONG_LOG_ROWS + 1);
  await client.query(
    `INSERT INTO "CampaignChange" ("campaignId", txid) SELECT $1, g FROM generate_series($2::bigint, $3::bigint) g ON CONFLICT DO NOTHING`,
    [campaignId, from, upTo],
  );
  const count = async () =>
    Number(
      (
        await client.query<{ n: string }>(`SELECT count(*) AS n FROM "CampaignChange" WHERE "campaignId" = $1`, [
          campaignId,
        ])
      ).rows[0].n,
    );
  await change();
  const rows = await count();
  const timed = async (read: () => Promise<unknown>) => {
    const started = performance.now();
    await read();
    return performance.now() - started;
  };
  const pageMs = await timed(readPage);
  const countMs = await timed(readExact);
  return { rows, pageMs, countMs, rowsAfter: await count() };
}

async function main(): Promise<void> {
  const database = await openDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const postgres = (await client.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version;
    const { campaignId, reviewer } = await ensureReviewData(client);
    const before = uptime();
    const requests = Number(options.requests);
    const warmUp = Number(options["warm-up"]);
    // A label's change, as a resubmission makes it: the kept count falls behind.
    const changeOneLabel = async (index: number) =>
      client.query(
        `UPDATE "Annotation" SET "activeMs" = "activeMs" + 1
         WHERE id = (SELECT a.id FROM "Annotation" a JOIN "CampaignItem" i ON i.id = a."itemId"
                     WHERE i."campaignId" = $1 ORDER BY a.id OFFSET $2 LIMIT 1)`,
        [campaignId, index],
      );
    console.error("Counting after a change (the API's read)…");
    const counting = await measureRequests(
      Math.max(3, Math.ceil(requests / 2)),
      async (index) => {
        await changeOneLabel(index);
        await pages.exactAgreement(reviewer, campaignId);
      },
      1,
    );
    console.error("Agreement page, count current…");
    const current = await measureRequests(requests, () => pages.agreementPage(reviewer, campaignId), warmUp);
    console.error("Agreement page, labels changed since the count…");
    let behind = 0;
    const changed = await measureRequests(
      requests,
      async (index) => {
        await changeOneLabel(1000 + index);
        if ((await pages.agreementPage(reviewer, campaignId)).changedSince) behind++;
      },
      warmUp,
    );
    console.error("A long change log: many changes since the last count…");
    const longLog = await measureLongLog(client, campaignId, {
      change: () => changeOneLabel(2000),
      readPage: () => pages.agreementPage(reviewer, campaignId),
      readExact: () => pages.exactAgreement(reviewer, campaignId),
    });
    const section = [
      SECTION,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:agreement\` on the database of \`npm run bench:review\` (100,000 items, 300,000 labels, overlap 3, 50 annotators): the agreement page's data calls, in-process and one at a time after ${warmUp} warm-up requests, and the count behind them.`,
      "",
      MEASURED_HEADER,
      measuredRow("agreement page, kept count current (all figures, signal trust, categories)", current),
      measuredRow(
        `agreement page, a label changed before each request (${behind} of ${requests + warmUp} answered from the kept count while it was behind; a background count ran alongside)`,
        changed,
      ),
      measuredRow("counting after a change: the API route's read, and the background count", counting),
      "",
      `A change log of ${longLog.rows.toLocaleString("en")} rows, as if every label had been its own transaction since the last count (synthetic rows of finished transactions, inserted in one statement): the page found the kept count behind in ${longLog.pageMs.toFixed(0)} ms; the API's read counted and deleted the rows its snapshot saw in ${longLog.countMs.toFixed(0)} ms, leaving ${longLog.rowsAfter} rows in the log.`,
      "",
      'The kept count (docs/architecture.md, "Kept agreement counts") makes the page one read of the stored counts plus the cheap per-request parts; counting itself still reads every label (last row).',
      "",
      `Load before and after: \`${before}\`; \`${uptime()}\` (1-min load ${loadavg()[0].toFixed(2)} at the end).`,
      "",
      machineLine(describeMachine(postgres)),
      "",
    ].join("\n");
    console.log(section);
    if (!options["no-write"]) writeBenchmarkSection(SECTION, section);
    benchRun.finish({
      agreementPage: { p50: ms(percentile(current.ms, 50)), p95: ms(percentile(current.ms, 95)) },
      exactAgreement: { p50: ms(percentile(counting.ms, 50)), p95: ms(percentile(counting.ms, 95)) },
      longLog: { rows: longLog.rows, exactMs: ms(longLog.countMs), rowsAfter: longLog.rowsAfter },
    });
  } finally {
    await client.end();
    await disconnectPrisma();
    await database.stop();
  }
}

await main();
process.exit(0);
