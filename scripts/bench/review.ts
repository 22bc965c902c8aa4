// Review benchmark (issue 21): the data calls of the review queue page, the adjudication page and the
// campaign list, in-process (no HTTP), one at a time, on the database `npm run bench:queue` leaves
// in .data/bench-queue (made here in SQL when missing: review-data.ts): 100,000 items, 300,000
// labels, overlap 3, 50 campaigns. Times each and how far one request raises the process's RSS.
// Writes docs/benchmarks.md.
//
//   npm run bench:review [-- --requests 20 --no-write]
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
    requests: { type: "string", default: "20" },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const REQUESTS = Number(options.requests);
const SECTION = "## Review queue, adjudication page and campaign list at 100k items / 300k labels (issue 21)";

const benchRun = startBenchRun("bench:review", options);
await selectBenchQueueDatabase(options);

const { openDatabase } = await import("@/lib/server/db/database");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const pages = await import("./review-pages");

async function main(): Promise<void> {
  const database = await openDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const postgres = (await client.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version;
    const { campaignId, admin, reviewer } = await ensureReviewData(client);
    const counts = (
      await client.query<{ items: string; labels: string; campaigns: string }>(
        `SELECT (SELECT count(*) FROM "CampaignItem" WHERE "campaignId" = $1) AS items,
                (SELECT sum("labelCount") FROM "CampaignItem" WHERE "campaignId" = $1) AS labels,
                (SELECT count(*) FROM "Campaign") AS campaigns`,
        [campaignId],
      )
    ).rows[0];
    const load = [uptime()];
    console.error("Review queue page…");
    const queue = await measureRequests(REQUESTS, () => pages.reviewQueuePage(reviewer, campaignId));
    const deep = await pages.queuePageCursor(reviewer, campaignId, 10_000);
    console.error("Review queue page 201…");
    const later = await measureRequests(REQUESTS, () => pages.laterQueuePage(reviewer, campaignId, deep));
    const sample = await pages.queueSample(reviewer, campaignId, REQUESTS + 2);
    console.error("Adjudication page…");
    const adjudication = await measureRequests(REQUESTS, (index) =>
      pages.adjudicationPage(reviewer, campaignId, sample[index % sample.length]),
    );
    console.error("Campaign list…");
    const list = await measureRequests(REQUESTS, () => pages.campaignListPage(admin));
    load.push(uptime());
    const section = [
      SECTION,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:review\` (embedded PostgreSQL in \`${process.env.VERITY_DATA_DIR}\`): the data calls each page makes, in-process and one at a time after 2 warm-up requests (no HTTP, no rendering), as a reviewer (the campaign list as an admin).`,
      `Campaign of ${Number(counts.items).toLocaleString("en-US")} items and ${Number(counts.labels).toLocaleString("en-US")} labels (overlap 3), ${counts.campaigns} campaigns in the list.`,
      "",
      MEASURED_HEADER,
      measuredRow("review queue page (first 50 rows, counts per queue, categories, annotators)", queue),
      measuredRow("review queue page 201 (rows 10,001–10,050, by cursor)", later),
      measuredRow("adjudication page (item, queue position, previous/next)", adjudication),
      measuredRow(`campaign list (${counts.campaigns} campaigns with progress)`, list),
      "",
      `Load before and after: \`${load[0]}\`; \`${load[1]}\` (1-min load ${loadavg()[0].toFixed(2)} at the end).`,
      "",
      machineLine(describeMachine(postgres)),
      "",
    ].join("\n");
    console.log(section);
    if (!options["no-write"]) writeBenchmarkSection(SECTION, section);
    benchRun.finish({
      reviewQueue: { p95: ms(percentile(queue.ms, 95)) },
      laterQueuePage: { p95: ms(percentile(later.ms, 95)) },
      adjudication: { p95: ms(percentile(adjudication.ms, 95)) },
      campaignList: { p95: ms(percentile(list.ms, 95)) },
    });
  } finally {
    await client.end();
    await disconnectPrisma();
    await database.stop();
  }
}

await main();
process.exit(0);
