// Report and export benchmark (issue: reports). Uses the database `npm run bench:queue` leaves in
// .data/bench-queue (100,000 records; a campaign with 300,000 annotations): times the SQL report, and
// streams the verified subset of a campaign whose 100,000 items are all labelled Valid, sampling the
// process's peak memory. Writes docs/benchmarks.md.
//
//   npm run bench:report [-- --runs 20 --no-write --json --db-port N --data-dir DIR]
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";

import pg from "pg";

import {
  BENCH_OPTIONS,
  describeMachine,
  machineLine,
  ms,
  percentile,
  selectBenchDatabase,
  startBenchRun,
  uptime,
  writeBenchmarkSection,
} from "./common";
import { fillOverlapCampaign } from "./queue-common";

const { values: options } = parseArgs({
  options: {
    "no-write": { type: "boolean", default: false },
    runs: { type: "string", default: "20" },
    ...BENCH_OPTIONS,
  },
});
const SECTION = "## Report and verified export (issue: reports)";

const benchRun = startBenchRun("bench:report", options);
const { dataDir } = await selectBenchDatabase(options, ".data/bench-queue");

const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { openDatabase } = await import("@/lib/server/db/database");
const { getCampaignReport } = await import("@/lib/server/reports/reports");
const { exportCampaign } = await import("@/lib/server/reports/exports");
const { createCampaignWithItems } = await import("./campaigns");
const { upsertUserFromCli } = await import("@/lib/server/users/users");
const { disconnectPrisma } = await import("@/lib/server/db/client");

/**
 * A campaign of every record of `like`'s dataset, each labelled Valid once, so the verified subset is
 * all of them: the one a previous run left, or a new one.
 */
async function ensureAllValidCampaign(client: pg.Client, like: string): Promise<string> {
  const left = (
    await client.query<{ id: string }>(
      `SELECT c.id FROM "Campaign" c WHERE c.name LIKE 'export-%'
         AND NOT EXISTS (SELECT 1 FROM "CampaignItem" i WHERE i."campaignId" = c.id AND i."labelCount" = 0)
         AND EXISTS (SELECT 1 FROM "CampaignItem" i WHERE i."campaignId" = c.id)
       LIMIT 1`,
    )
  ).rows[0];
  if (left) return left.id;
  const admin = (
    await upsertUserFromCli({ actor: SYSTEM_ACTOR.cli, email: "admin@bench.test", role: "ADMIN", languages: [] })
  ).actor;
  const annotator = (
    await upsertUserFromCli({
      actor: SYSTEM_ACTOR.cli,
      email: "annotator0@bench.test",
      role: "ANNOTATOR",
      languages: [],
    })
  ).actor;
  const dataset = (
    await client.query<{ name: string }>(
      `SELECT d.name FROM "Campaign" c JOIN "Dataset" d ON d.id = c."datasetId" WHERE c.id = $1`,
      [like],
    )
  ).rows[0].name;
  const all = await createCampaignWithItems({
    actor: admin,
    input: {
      dataset,
      name: `export-${Date.now().toString(36)}`,
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  console.error("Labelling every record of a new campaign Valid once (the verified export's data)…");
  await fillOverlapCampaign(client, all.id, [annotator.id], { allValid: true });
  return all.id;
}

async function main(): Promise<void> {
  const database = await openDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const workDir = mkdtempSync(join(tmpdir(), "verity-export-"));
  try {
    const postgres = (await client.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version;
    const busiest = (
      await client.query<{ id: string; name: string; annotations: string }>(
        `SELECT c.id, c.name, count(a.id) AS annotations FROM "Campaign" c JOIN "CampaignItem" i ON i."campaignId" = c.id JOIN "Annotation" a ON a."itemId" = i.id GROUP BY c.id ORDER BY count(a.id) DESC LIMIT 1`,
      )
    ).rows[0];
    if (!busiest) throw new Error(`No labelled campaign in ${dataDir}: run \`npm run bench:queue\` first.`);
    const items = Number(
      (
        await client.query<{ n: string }>(`SELECT count(*) AS n FROM "CampaignItem" WHERE "campaignId" = $1`, [
          busiest.id,
        ])
      ).rows[0].n,
    );

    const loadBefore = uptime();
    const reportMs: number[] = [];
    for (let run = 0; run < Number(options.runs); run++) {
      const started = performance.now();
      await getCampaignReport({ actor: SYSTEM_ACTOR.cli, campaignId: busiest.id });
      reportMs.push(performance.now() - started);
    }

    const exportCampaignId = await ensureAllValidCampaign(client, busiest.id);
    const file = join(workDir, "verified.jsonl");
    let peakRss = process.memoryUsage().rss;
    const baselineRss = peakRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 50);
    const started = performance.now();
    await pipeline(
      Readable.from(
        exportCampaign({ actor: SYSTEM_ACTOR.cli, campaignId: exportCampaignId, what: "verified", format: "jsonl" }),
      ),
      createWriteStream(file),
    );
    const exportSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const exportBytes = statSync(file).size;
    let exported = 0;
    for await (const chunk of (await import("node:fs")).createReadStream(file))
      exported += (chunk as Buffer).toString("latin1").split("\n").length - 1;

    const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MiB`;
    const section = [
      SECTION,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:report\` on the database left by \`npm run bench:queue\`.`,
      "",
      "| measure | value |",
      "|---|---|",
      `| report of campaign "${busiest.name}" (${items.toLocaleString("en-US")} items, ${Number(busiest.annotations).toLocaleString("en-US")} annotations), ${reportMs.length} runs one at a time | p50 ${percentile(reportMs, 50).toFixed(0)} ms, p95 ${percentile(reportMs, 95).toFixed(0)} ms, max ${Math.max(...reportMs).toFixed(0)} ms |`,
      `| verified export (${exported.toLocaleString("en-US")} records, ${mib(exportBytes)} of JSONL) | ${exportSeconds.toFixed(1)} s, ${(exported / exportSeconds).toFixed(0)} records/s |`,
      `| process RSS during the export | ${mib(baselineRss)} before, ${mib(peakRss)} peak |`,
      "",
      `Load before the report runs and after the export: \`${loadBefore}\`; \`${uptime()}\`.`,
      "",
      machineLine(describeMachine(postgres)),
      "",
    ].join("\n");
    console.log(section);
    if (!options["no-write"]) writeBenchmarkSection(SECTION, section);
    benchRun.finish({
      report: { p50: ms(percentile(reportMs, 50)), p95: ms(percentile(reportMs, 95)), runs: reportMs.length, items },
      export: { seconds: Number(exportSeconds.toFixed(2)), records: exported },
    });
  } finally {
    rmSync(workDir, { recursive: true, force: true });
    await client.end();
    await disconnectPrisma();
    await database.stop();
  }
}

await main();
process.exit(0);
