// Workspace page benchmark (issue: the annotator's loop). Uses the database `npm run bench:queue`
// leaves in .data/bench-queue (100,000 records; a campaign of overlap 3 with 300,000 annotations):
// the server's response time for the annotator's item page, one request at a time, as the
// annotator who labelled the items. Writes docs/benchmarks.md.
//
//   npm run bench:queue -- --seconds 5 --annotators 3 --no-write   # builds the data, ≈300k labels
//   npm run bench:workspace-page [-- --requests 200 --no-write --json --app-port N --db-port N --data-dir DIR]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";

import pg from "pg";

import { startApp, signInWithPassword, stopApp } from "./app";
import {
  BENCH_OPTIONS,
  chooseAppPort,
  describeMachine,
  machineLine,
  ms,
  percentile,
  selectBenchDatabase,
  startBenchRun,
  writeBenchmarkSection,
} from "./common";

const { values: options } = parseArgs({
  options: {
    requests: { type: "string", default: "200" },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:workspace-page", options);
const REQUESTS = Number(options.requests);
const PORT = await chooseAppPort(options);
const BASE = `http://127.0.0.1:${PORT}`;
const SECTION = "## Workspace page at 100k records / 300k labels (issue: the annotator's loop)";

const { dataDir } = await selectBenchDatabase(options, ".data/bench-queue");

const { openDatabase } = await import("@/lib/server/db/database");

const count = async (client: pg.Client, sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0].n);

async function main(): Promise<void> {
  const database = await openDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const server = await startApp(database.url, PORT);
  try {
    const postgres = (await client.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version;
    const campaign = (
      await client.query<{ id: string }>(
        `SELECT id FROM "Campaign" WHERE name LIKE 'view-%' ORDER BY "createdAt" DESC LIMIT 1`,
      )
    ).rows[0];
    if (!campaign) throw new Error(`No overlap-3 campaign in ${dataDir}: run \`npm run bench:queue\` first.`);
    const viewer = (
      await client.query<{ id: string; email: string }>(
        `SELECT id, email FROM "User" WHERE email = 'annotator0@bench.test'`,
      )
    ).rows[0];
    const items = (
      await client.query<{ id: string }>(
        `SELECT i.id FROM "CampaignItem" i JOIN "Annotation" a ON a."itemId" = i.id AND a."userId" = $2 WHERE i."campaignId" = $1 ORDER BY random() LIMIT $3`,
        [campaign.id, viewer.id, REQUESTS + 10],
      )
    ).rows;
    const records = await count(client, `SELECT count(*) AS n FROM "Record"`);
    const annotations = await count(client, `SELECT count(*) AS n FROM "Annotation"`);
    const cookie = await signInWithPassword(BASE, viewer.email, "bench-password-1");

    const loadBefore = loadavg()[0];
    const pageMs: number[] = [];
    for (const [index, item] of items.entries()) {
      const started = performance.now();
      const response = await fetch(`${BASE}/campaigns/${campaign.id}/items/${item.id}`, { headers: { cookie } });
      await response.text();
      if (response.status !== 200) throw new Error(`the item page answered ${response.status}`);
      // The first requests warm the server's caches and compiled routes.
      if (index >= 10) pageMs.push(performance.now() - started);
    }
    const loadAfter = loadavg()[0];

    const fmt = (p: number) => `${percentile(pageMs, p).toFixed(1)} ms`;
    const section = [
      SECTION,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:workspace-page\` on the database \`npm run bench:queue\` leaves (production build, app on port ${PORT}).`,
      `${records.toLocaleString("en-US")} records and ${annotations.toLocaleString("en-US")} annotations in the database; the annotator's item page (\`GET /campaigns/{id}/items/{item}\`, server-rendered HTML) of items the annotator labelled, one request at a time after 10 warm-up requests.`,
      "",
      "| measure | n | p50 | p95 | p99 |",
      "|---|---:|---:|---:|---:|",
      `| annotator's item page | ${pageMs.length} | ${fmt(50)} | ${fmt(95)} | ${fmt(99)} |`,
      "",
      `Load average (1 min): ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after. Aim: p95 < 100 ms.`,
      "",
      machineLine(describeMachine(postgres)),
      "",
    ].join("\n");
    console.log(section);
    if (!options["no-write"]) writeBenchmarkSection(SECTION, section);
    benchRun.finish({
      itemPage: { p50: ms(percentile(pageMs, 50)), p95: ms(percentile(pageMs, 95)), n: pageMs.length },
    });
  } finally {
    await stopApp(server);
    await client.end();
    await database.stop();
  }
}

await main();
process.exit(0);
