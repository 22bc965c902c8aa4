// Where people should look, at scale (issue 23): on the database of bench:review (review-data.ts:
// 100,000 records; a campaign of overlap 3 with 300,000 labels by 50 annotators) with evidence added
// in SQL — a mutation score on two records in three, one in fifty flaky, three solver models on one
// record in four — times the agreement page's signal-vs-people table, the dataset's evidence filters
// (first page with its count, and a page from the middle), the review page's evidence queues (a page
// and the four counts), and creating a suspicion-ordered campaign over every record. In-process, one
// request at a time; the dataset page's and review page's counts again with the most delta rows a
// read sums before folding them. Writes docs/benchmarks.md.
//
//   npm run bench:evidence-filters [-- --requests 10 --no-write]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";

import pg from "pg";

import { BENCH_OPTIONS, describeMachine, machineLine, uptime, writeBenchmarkSection, startBenchRun } from "./common";
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
const SECTION = "## Where people should look at 100k records (issue 23)";
const DATASET = "bench-queue";

const benchRun = startBenchRun("bench:evidence-filters", options);
await selectBenchQueueDatabase(options);

const { openDatabase } = await import("@/lib/server/db/database");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { exactAgreement } = await import("./review-pages");
const { browseRecords, listRecords } = await import("@/lib/server/records/records");
const { countEvidenceQueues, listEvidenceQueue } = await import("@/lib/server/review/evidence-queues");
const { createCampaignWithItems } = await import("./campaigns");
const { EVIDENCE_REASONS } = await import("@/lib/evidence/suspicion");

/** Mutation scores, flaky flags and solver results on the benchmark dataset, once. */
async function ensureEvidence(client: pg.Client): Promise<void> {
  const solutions = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "Solution"`)).rows[0].n);
  if (solutions > 0) return;
  console.error("Adding mutation scores, flaky flags and solver results…");
  await client.query(
    `UPDATE "Record" r SET "mutationScore" = CASE WHEN r.id % 3 <> 0 THEN (abs(hashtext(r.key)) % 101) / 100.0 END,
                           flaky = CASE WHEN r.id % 5 = 0 THEN r.id % 50 = 0 END
     FROM "Dataset" d WHERE d.id = r."datasetId" AND d.name = $1`,
    [DATASET],
  );
  await client.query(
    `INSERT INTO "Solution" (id, "recordId", model, code, outcome, passed)
     SELECT 'sol_' || r.id || '_' || m, r.id, 'model-' || m, '', 'PASSED', abs(hashtext(r.key || m)) % 3 <> 0
     FROM "Record" r JOIN "Dataset" d ON d.id = r."datasetId", generate_series(1, 3) m
     WHERE d.name = $1 AND r.id % 4 = 0`,
    [DATASET],
  );
  await client.query("ANALYZE");
}

async function main(): Promise<void> {
  const database = await openDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const postgres = (await client.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version;
    const { campaignId, admin, reviewer } = await ensureReviewData(client);
    await ensureEvidence(client);
    const requests = Number(options.requests);
    const warmUp = Number(options["warm-up"]);
    const before = uptime();
    const rows: string[] = [];
    const matches: string[] = [];

    // The signal table is part of the agreement count now (bench:agreement times the page that reads it kept).
    const trust = await measureRequests(requests, () => exactAgreement(reviewer, campaignId), warmUp);
    rows.push(
      measuredRow(
        "agreement figures with the signal-vs-people table, kept count current (every signal, overall and per language)",
        trust,
      ),
    );

    for (const reason of EVIDENCE_REASONS) {
      const filters = { evidence: reason };
      const first = await browseRecords({ actor: reviewer, datasetName: DATASET, filters, limit: 50 });
      matches.push(`${reason} ${first.total.toLocaleString("en")}`);
      rows.push(
        measuredRow(
          `dataset page, Look at = ${reason}: first 50 rows + the count`,
          await measureRequests(
            requests,
            () => browseRecords({ actor: reviewer, datasetName: DATASET, filters, limit: 50 }),
            warmUp,
          ),
        ),
      );
      // A page from the middle of the filter: its cursor is the id half way through the dataset's records.
      const middle = await client.query<{ id: number }>(
        `SELECT id FROM "Record" r WHERE r."datasetId" = (SELECT id FROM "Dataset" WHERE name = $1) ORDER BY id
         OFFSET (SELECT count(*) / 2 FROM "Record" WHERE "datasetId" = (SELECT id FROM "Dataset" WHERE name = $1)) LIMIT 1`,
        [DATASET],
      );
      rows.push(
        measuredRow(
          `REST listing, evidence=${reason}: 50 records from the middle (keyset)`,
          await measureRequests(
            requests,
            () => listRecords({ actor: reviewer, datasetName: DATASET, filters, limit: 50, cursor: middle.rows[0].id }),
            warmUp,
          ),
        ),
      );
    }
    rows.push(
      measuredRow(
        "review page: the four evidence-queue counts",
        await measureRequests(
          requests,
          () => countEvidenceQueues({ actor: reviewer, campaignId, filters: {} }),
          warmUp,
        ),
      ),
    );
    rows.push(
      measuredRow(
        "review page: weak-tests queue, first 50 items + the four counts",
        await measureRequests(
          requests,
          () => listEvidenceQueue({ actor: reviewer, campaignId, filters: { reason: "weak_tests" } }),
          warmUp,
        ),
      ),
    );
    // The kept counts with the most delta rows a read sums before it folds them (just under
    // FOLD_AFTER_DELTAS of lib/server/evidence/reasons.ts): pairs of +1 and -1 on the masks in use,
    // as writers moving records back and forth leave them; the answers stay the same.
    await client.query(
      `INSERT INTO "EvidenceCountDelta" ("datasetId", language, reasons, delta)
       SELECT c."datasetId", c.language, c.reasons, d FROM (
         SELECT "datasetId", language, reasons, row_number() OVER () AS n FROM "EvidenceCount"
          WHERE "datasetId" = (SELECT id FROM "Dataset" WHERE name = $1)) c,
         generate_series(1, 499) g, (VALUES (1), (-1)) v(d)
       WHERE g % (SELECT count(*) FROM "EvidenceCount" WHERE "datasetId" = (SELECT id FROM "Dataset" WHERE name = $1)) = c.n - 1`,
      [DATASET],
    );
    await client.query(
      `INSERT INTO "CampaignEvidenceCountDelta" ("campaignId", language, reasons, delta)
       SELECT c."campaignId", c.language, c.reasons, d FROM (
         SELECT "campaignId", language, reasons, row_number() OVER () AS n FROM "CampaignEvidenceCount"
          WHERE "campaignId" = $1) c,
         generate_series(1, 499) g, (VALUES (1), (-1)) v(d)
       WHERE g % (SELECT count(*) FROM "CampaignEvidenceCount" WHERE "campaignId" = $1) = c.n - 1`,
      [campaignId],
    );
    const pending = await client.query<{ records: string; items: string }>(
      `SELECT (SELECT count(*) FROM "EvidenceCountDelta") AS records, (SELECT count(*) FROM "CampaignEvidenceCountDelta") AS items`,
    );
    const withDeltas = `${Number(pending.rows[0].records)} / ${Number(pending.rows[0].items)} delta rows not folded`;
    rows.push(
      measuredRow(
        `dataset page, Look at = weak_tests: first 50 rows + the count, ${withDeltas}`,
        await measureRequests(
          requests,
          () =>
            browseRecords({ actor: reviewer, datasetName: DATASET, filters: { evidence: "weak_tests" }, limit: 50 }),
          warmUp,
        ),
      ),
    );
    rows.push(
      measuredRow(
        `review page: the four evidence-queue counts, ${withDeltas}`,
        await measureRequests(
          requests,
          () => countEvidenceQueues({ actor: reviewer, campaignId, filters: {} }),
          warmUp,
        ),
      ),
    );
    await client.query(`SELECT verity_fold_evidence_counts(id) FROM "Dataset" WHERE name = $1`, [DATASET]);
    await client.query(`SELECT verity_fold_campaign_evidence_counts($1)`, [campaignId]);

    const suspicion = await measureRequests(
      Math.min(3, requests),
      async (index) => {
        const created = await createCampaignWithItems({
          actor: admin,
          input: {
            dataset: DATASET,
            name: `bench-suspicion-${Date.now().toString(36)}-${index}`,
            sampling: "suspicion",
            overlap: 1,
            agreementFraction: 0,
            blind: false,
            finalRule: "consensus",
            leaseMinutes: 30,
          },
        });
        await client.query(`DELETE FROM "Campaign" WHERE id = $1`, [created.id]);
      },
      0,
    );
    rows.push(measuredRow("create a suspicion campaign over all 100,000 records (and delete it)", suspicion));

    const section = [
      SECTION,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:evidence-filters\` on the database of \`npm run bench:review\` (100,000 records; a campaign of overlap 3 with 300,000 labels by 50 annotators), with evidence added in SQL: a mutation score on two records in three (uniform 0–1), one record in fifty flaky, three solver models on one record in four. In-process, one request at a time after ${warmUp} warm-up requests. Records matching each reason: ${matches.join(", ")}.`,
      "",
      MEASURED_HEADER,
      ...rows,
      "",
      "How the SQL finds them: weak tests read the index `Record (datasetId, mutationScore, id)`, flaky `(datasetId, flaky, id)`; solved by no model is an EXISTS / NOT EXISTS on `Solution`'s unique (recordId, model) index per record; critic vs execution joins `CriticVerdict` by its key. The count beside each first page is the costly part: it reads every match (a range of the index, or every record of the dataset for the two reasons with no column of their own).",
      "",
      `Load before and after: \`${before}\`; \`${uptime()}\` (1-min load ${loadavg()[0].toFixed(2)} at the end). On a machine whose load passes its cores these are upper bounds.`,
      "",
      machineLine(describeMachine(postgres)),
      "",
    ].join("\n");
    console.log(section);
    if (!options["no-write"]) writeBenchmarkSection(SECTION, section);
    benchRun.finish({ rows: rows.length });
  } finally {
    await client.end();
    await disconnectPrisma();
    await database.stop();
  }
}

await main();
process.exit(0);
