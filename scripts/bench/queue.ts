// Queue benchmark (issue: annotation workspace). On a database of its own: 100,000 records, a
// campaign of 100,000 items, 50 simulated annotators claiming and submitting through the REST API
// for 60 s (claim and submit latency, throughput, over-assignment check); then 300,000 annotations
// in the database and the record view's server response time. Writes docs/benchmarks.md.
//
//   npm run bench:queue [-- --seconds 60 --annotators 50 --records 100000 --no-write --json
//                          --app-port N --db-port N --data-dir DIR]
import type { ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";

import pg from "pg";

import { signInWithPassword, startApp, stopApp } from "./app";
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
import { countOverAssignment, fillOverlapCampaign, runClosed, seedRecords, time } from "./queue-common";

const { values: options } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    annotators: { type: "string", default: "50" },
    records: { type: "string", default: "100000" },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:queue", options);
const SECONDS = Number(options.seconds);
const ANNOTATORS = Number(options.annotators);
const RECORDS = Number(options.records);
const PORT = await chooseAppPort(options);
const BASE = `http://127.0.0.1:${PORT}`;
const SECTION = "## Queue and record view (issue: annotation workspace)";

const { dataDir } = await selectBenchDatabase(options, ".data/bench-queue");

const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { openDatabase } = await import("@/lib/server/db/database");
const { upsertUserFromCli } = await import("@/lib/server/users/users");
const { createApiToken } = await import("@/lib/server/users/tokens");
const { createCampaignWithItems } = await import("./campaigns");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { LANGUAGES } = await import("@/lib/records/languages");

const PASSWORD = "bench-password-1";

async function main(): Promise<void> {
  const database = await openDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  let server: ChildProcess | null = null;
  try {
    const postgres = (await client.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version;
    const run = Date.now().toString(36);
    const dataset = "bench-queue";
    console.error(`Seeding ${RECORDS.toLocaleString("en-US")} records…`);
    await seedRecords(client, { dataset, count: RECORDS, languages: LANGUAGES });
    const users: { actor: { id: string; email: string }; token: string }[] = [];
    // At least three people, so the overlap-3 campaign below can be filled with distinct annotators.
    for (let index = 0; index < Math.max(ANNOTATORS, 3); index++) {
      const { actor } = await upsertUserFromCli({
        actor: SYSTEM_ACTOR.cli,
        email: `annotator${index}@bench.test`,
        role: "ANNOTATOR",
        languages: [...LANGUAGES],
        password: PASSWORD,
      });
      users.push({
        actor,
        token: (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: actor.id, name: `bench-${run}` })).token,
      });
    }
    const admin = (
      await upsertUserFromCli({
        actor: SYSTEM_ACTOR.cli,
        email: "admin@bench.test",
        role: "ADMIN",
        languages: [],
        password: PASSWORD,
      })
    ).actor;
    console.error("Creating the campaign of every record…");
    const created = await time(() =>
      createCampaignWithItems({
        actor: admin,
        input: {
          dataset,
          name: `queue-${run}`,
          overlap: 1,
          agreementFraction: 0,
          blind: false,
          finalRule: "consensus",
          leaseMinutes: 30,
        },
      }),
    );
    const campaign = created.value;

    server = await startApp(database.url, PORT);
    /** The first `count` annotators claim and submit through the REST API until the deadline. */
    const runLoad = (count: number, seconds: number) =>
      runClosed(
        users.slice(0, count).map(({ token }) => ({ token, base: BASE })),
        campaign.id,
        seconds,
      );
    // One annotator first: the service time without queueing, for comparison.
    console.error("One annotator for 10 s…");
    const single = await runLoad(1, 10);
    console.error(`Running ${ANNOTATORS} annotators for ${SECONDS} s…`);
    const { claimMs, submitMs, errors } = await runLoad(ANNOTATORS, SECONDS);
    const { overAssigned, duplicates } = await countOverAssignment(client, campaign.id);

    // 300,000 annotations in the database: a second campaign with overlap 3, filled in SQL.
    console.error("Filling a campaign of overlap 3 with 300,000 annotations…");
    const full = await createCampaignWithItems({
      actor: admin,
      input: {
        dataset,
        name: `view-${run}`,
        overlap: 3,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    await fillOverlapCampaign(
      client,
      full.id,
      users.map(({ actor }) => actor.id),
    );

    await client.query("ANALYZE");
    const annotationCount = Number(
      (await client.query<{ n: string }>(`SELECT count(*) AS n FROM "Annotation"`)).rows[0].n,
    );

    console.error("Measuring the record view…");
    const viewer = users[0];
    const cookie = await signInWithPassword(BASE, viewer.actor.email, PASSWORD);
    const items = (
      await client.query<{ id: string; recordId: number }>(
        `SELECT i.id, i."recordId" FROM "CampaignItem" i JOIN "Annotation" a ON a."itemId" = i.id AND a."userId" = $2 WHERE i."campaignId" = $1 ORDER BY random() LIMIT 200`,
        [full.id, viewer.actor.id],
      )
    ).rows;
    const viewMs: number[] = [];
    const workspaceMs: number[] = [];
    for (const item of items) {
      const record = await time(() =>
        fetch(`${BASE}/records/${item.recordId}`, { headers: { cookie } }).then((response) =>
          response.text().then(() => response.status),
        ),
      );
      if (record.value === 200) viewMs.push(record.ms);
      const workspace = await time(() =>
        fetch(`${BASE}/campaigns/${full.id}/items/${item.id}`, { headers: { cookie } }).then((response) =>
          response.text().then(() => response.status),
        ),
      );
      if (workspace.value === 200) workspaceMs.push(workspace.ms);
    }

    const machine = describeMachine(postgres);
    const fmt = (values: number[], p: number) => (values.length ? `${percentile(values, p).toFixed(1)} ms` : "—");
    const table = [
      "| measure | n | p50 | p95 | p99 |",
      "|---|---:|---:|---:|---:|",
      `| claim (POST /api/v1/campaigns/{id}/claim), ${ANNOTATORS} annotators | ${claimMs.length} | ${fmt(claimMs, 50)} | ${fmt(claimMs, 95)} | ${fmt(claimMs, 99)} |`,
      `| submit (POST /api/v1/items/{id}/annotations), ${ANNOTATORS} annotators | ${submitMs.length} | ${fmt(submitMs, 50)} | ${fmt(submitMs, 95)} | ${fmt(submitMs, 99)} |`,
      `| claim, one annotator alone | ${single.claimMs.length} | ${fmt(single.claimMs, 50)} | ${fmt(single.claimMs, 95)} | ${fmt(single.claimMs, 99)} |`,
      `| submit, one annotator alone | ${single.submitMs.length} | ${fmt(single.submitMs, 50)} | ${fmt(single.submitMs, 95)} | ${fmt(single.submitMs, 99)} |`,
      `| record page (GET /records/{id}) | ${viewMs.length} | ${fmt(viewMs, 50)} | ${fmt(viewMs, 95)} | ${fmt(viewMs, 99)} |`,
      `| annotator's item page (GET /campaigns/{id}/items/{item}) | ${workspaceMs.length} | ${fmt(workspaceMs, 50)} | ${fmt(workspaceMs, 95)} | ${fmt(workspaceMs, 99)} |`,
    ].join("\n");
    const section = [
      SECTION,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:queue\` (embedded PostgreSQL in \`${dataDir}\`, app on port ${PORT}, production build; 1-minute load ${benchRun.load.before.toFixed(2)} at the start).`,
      `${RECORDS.toLocaleString("en-US")} records; a campaign of ${campaign.itemCount.toLocaleString("en-US")} items (created in ${(created.ms / 1000).toFixed(2)} s); ${ANNOTATORS} concurrent simulated annotators claiming and submitting through the REST API for ${SECONDS} s.`,
      "",
      table,
      "",
      `With ${ANNOTATORS} annotators the load generator, the app and PostgreSQL share the 2 cores, so latency is mostly queueing. Throughput: ${(submitMs.length / SECONDS).toFixed(1)} labels/s (${submitMs.length} in ${SECONDS} s), ${errors} failed requests. Over-assigned items: **${overAssigned}**; annotator twice on an item: **${duplicates}**.`,
      `The page timings ran with ${annotationCount.toLocaleString("en-US")} annotations and ${RECORDS.toLocaleString("en-US")} records in the database, one request at a time, after the load test.`,
      "",
      machineLine(machine),
      "",
    ].join("\n");
    console.log(section);
    if (!options["no-write"]) writeBenchmarkSection(SECTION, section);
    benchRun.finish({
      claim: { p50: ms(percentile(claimMs, 50)), p95: ms(percentile(claimMs, 95)) },
      submit: { p50: ms(percentile(submitMs, 50)), p95: ms(percentile(submitMs, 95)) },
      recordPage: { p95: ms(percentile(viewMs, 95)) },
      itemPage: { p95: ms(percentile(workspaceMs, 95)) },
      errors,
      overAssigned,
      duplicates,
    });
  } finally {
    if (server) await stopApp(server);
    await client.end();
    await disconnectPrisma();
    await database.stop();
  }
}

await main();
process.exit(0);
