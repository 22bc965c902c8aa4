// Shared by the review and agreement benchmarks (review.ts, agreement.ts): the database shape of
// `npm run bench:queue` (100,000 records; a campaign of overlap 3 with 300,000 labels by 50
// annotators), made in SQL without the app when it is not there yet, plus what a review queue needs
// to be realistic: critic verdicts, execution results, categories on Invalid labels, flags and a few
// adjudications; and 49 small campaigns beside it, so the campaign list shows 50.
import type pg from "pg";

import type { Actor } from "@/lib/server/auth/permissions";

import { type BenchFlags, percentile, selectBenchDatabase } from "./common";
import { fillOverlapCampaign, seedRecords } from "./queue-common";

export const BENCH_DATA_DIR = ".data/bench-queue";

/** Points the modules loaded after this call at the benchmark database `npm run bench:queue` uses (or --data-dir's). */
export async function selectBenchQueueDatabase(flags: BenchFlags): Promise<void> {
  await selectBenchDatabase(flags, BENCH_DATA_DIR);
}

export type ReviewData = { campaignId: string; admin: Actor; reviewer: Actor };

const CAMPAIGNS_LISTED = 50;

/** The overlap-3 campaign with the most labels, made (with its surroundings) when missing. */
export async function ensureReviewData(client: pg.Client): Promise<ReviewData> {
  const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
  const { upsertUserFromCli } = await import("@/lib/server/users/users");
  const { createCampaignWithItems } = await import("./campaigns");
  const { LANGUAGES } = await import("@/lib/records/languages");
  const dataset = "bench-queue";
  const admin = (
    await upsertUserFromCli({ actor: SYSTEM_ACTOR.cli, email: "admin@bench.test", role: "ADMIN", languages: [] })
  ).actor;
  const reviewer = (
    await upsertUserFromCli({ actor: SYSTEM_ACTOR.cli, email: "reviewer@bench.test", role: "REVIEWER", languages: [] })
  ).actor;
  const existing = (
    await client.query<{ id: string }>(
      `SELECT c.id FROM "Campaign" c WHERE c.name LIKE 'view-%' AND c.overlap = 3
       ORDER BY (SELECT count(*) FROM "CampaignItem" i WHERE i."campaignId" = c.id AND i."labelCount" > 0) DESC LIMIT 1`,
    )
  ).rows[0];
  let campaignId = existing?.id;
  if (!campaignId) {
    console.error("Seeding 100,000 records and a campaign of overlap 3 with 300,000 labels…");
    await seedRecords(client, { dataset, count: 100_000, languages: LANGUAGES });
    const annotators: string[] = [];
    for (let index = 0; index < 50; index++)
      annotators.push(
        (
          await upsertUserFromCli({
            actor: SYSTEM_ACTOR.cli,
            email: `annotator${index}@bench.test`,
            role: "ANNOTATOR",
            languages: [...LANGUAGES],
          })
        ).actor.id,
      );
    const campaign = await createCampaignWithItems({
      actor: admin,
      input: {
        dataset,
        name: `view-${Date.now().toString(36)}`,
        overlap: 3,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    campaignId = campaign.id;
    await fillOverlapCampaign(client, campaignId, annotators);
  }
  const hasEvidence = Number(
    (await client.query<{ n: string }>(`SELECT count(*) AS n FROM "CriticVerdict"`)).rows[0].n,
  );
  if (hasEvidence === 0) {
    console.error("Adding critic verdicts, execution results, categories, flags and adjudications…");
    // A critic on every record (one in four failed), execution on two in three, the categories of
    // Invalid labels, one label in a hundred flagged, and one disagreement in fifty decided.
    await client.query(
      `INSERT INTO "CriticVerdict" ("recordId", "overallPass", "failedRules", raw)
       SELECT r.id, r.id % 4 <> 0, CASE WHEN r.id % 4 = 0 THEN ARRAY['precision'] ELSE '{}' END, '{}'
       FROM "Record" r JOIN "Dataset" d ON d.id = r."datasetId" WHERE d.name = $1 ON CONFLICT DO NOTHING`,
      [dataset],
    );
    await client.query(
      `UPDATE "Record" r SET "executableValid" = r.id % 7 <> 0 FROM "Dataset" d WHERE d.id = r."datasetId" AND d.name = $1 AND r.id % 3 <> 0`,
      [dataset],
    );
    await client.query(
      `UPDATE "Annotation" a SET categories = CASE WHEN hashtext(a.id) % 2 = 0 THEN ARRAY['precision'] ELSE ARRAY['name-mismatch', 'weak-coverage'] END
       FROM "CampaignItem" i WHERE i.id = a."itemId" AND i."campaignId" = $1 AND NOT a.valid`,
      [campaignId],
    );
    await client.query(
      `UPDATE "Annotation" a SET "needsReview" = true FROM "CampaignItem" i WHERE i.id = a."itemId" AND i."campaignId" = $1 AND abs(hashtext(a.id)) % 100 = 0`,
      [campaignId],
    );
    await client.query(
      `INSERT INTO "Adjudication" (id, "itemId", "reviewerId", valid, categories, reason, revision, "updatedAt")
       SELECT 'adj_' || md5(i.id), i.id, $2, true, '{}', 'bench', 1, now() FROM "CampaignItem" i
       WHERE i."campaignId" = $1 AND i."validCount" BETWEEN 1 AND i."labelCount" - 1 AND i.position % 50 = 0
       ON CONFLICT DO NOTHING`,
      [campaignId, reviewer.id],
    );
  }
  const listed = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "Campaign"`)).rows[0].n);
  for (let index = listed; index < CAMPAIGNS_LISTED; index++) {
    // 50 records per language: about 1,000 items each, beside the 100,000-item campaign.
    const small = await createCampaignWithItems({
      actor: admin,
      input: {
        dataset,
        name: `list-${index}-${Date.now().toString(36)}`,
        overlap: 1,
        perLanguage: 50,
        seed: String(index),
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    await fillOverlapCampaign(client, small.id, [reviewer.id]);
  }
  await client.query("ANALYZE");
  return { campaignId, admin, reviewer };
}

export type Measured = { ms: number[]; growthMiB: number[] };

/**
 * Runs `request` `count` times, one at a time after `warmUp` unmeasured runs: the time of each, and how
 * far the process's RSS rose above where it stood before it (sampled every 10 ms while it ran).
 */
export async function measureRequests(
  count: number,
  request: (index: number) => Promise<unknown>,
  warmUp = 2,
): Promise<Measured> {
  for (let index = 0; index < warmUp; index++) await request(index);
  const ms: number[] = [];
  const growthMiB: number[] = [];
  for (let index = 0; index < count; index++) {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const started = performance.now();
    await request(index + warmUp);
    ms.push(performance.now() - started);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    growthMiB.push((peak - before) / 1024 ** 2);
  }
  return { ms, growthMiB };
}

/** One table row: n, p50, p95, max and the largest RSS growth of one request. */
export function measuredRow(name: string, { ms, growthMiB }: Measured): string {
  const f = (value: number) => `${value.toFixed(0)} ms`;
  return `| ${name} | ${ms.length} | ${f(percentile(ms, 50))} | ${f(percentile(ms, 95))} | ${f(Math.max(...ms))} | ${Math.max(...growthMiB).toFixed(0)} MiB |`;
}

export const MEASURED_HEADER =
  "| measure | n | p50 | p95 | max | RSS growth (largest) |\n|---|---:|---:|---:|---:|---:|";
