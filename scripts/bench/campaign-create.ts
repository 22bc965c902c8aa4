// Creating a campaign over a large dataset (issue 36), for a random and for a suspicion-ordered
// sample: how long createCampaign takes to answer over every record of the bench dataset (100,000 by
// default), how long the job then takes to draw its items (drawCampaignItems, called here as a
// worker would), and how long a creation over the largest dataset still drawn inside the request
// takes (RECORDS_DRAWN_IN_REQUEST records: a copy of the bench dataset's first ones, removed after).
// Each campaign is removed again afterwards (timed too), so the database is left as it was found.
// Then, on one campaign over the whole dataset (issue 36, release cut, campaign extension and
// deletion as jobs): adding every record to a campaign of 100 a language (extendCampaign's answer,
// then the job, addExtensionItems) and deleting it (deleteCampaign's answer, then removeCampaign).
// The draw jobs createCampaign queues stay in the queue; a worker that takes one later finds its
// campaign gone and does nothing.
//
//   npm run bench:campaign-create -- --data-dir .data/bench-queue-scale [--dataset NAME] [--runs 1 (0: the extension and deletion only)] [--json]
import { parseArgs } from "node:util";

import pg from "pg";

import { BENCH_OPTIONS, ms, selectBenchDatabase, startBenchRun, uptime } from "./common";

const { values: options } = parseArgs({
  options: {
    dataset: { type: "string", default: "bench-queue-scale" },
    runs: { type: "string", default: "1" },
    ...BENCH_OPTIONS,
  },
});
const RUNS = Number(options.runs);
// --runs 0: only the extension and the deletion.
if (!Number.isInteger(RUNS) || RUNS < 0) throw new Error(`--runs must be a whole number from 0, got ${options.runs}`);
const benchRun = startBenchRun("bench:campaign-create", options);

await selectBenchDatabase(options, ".data/bench-queue-scale");

const { openDatabase } = await import("@/lib/server/db/database");
const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { upsertUserFromCli } = await import("@/lib/server/users/users");
const { createCampaign } = await import("@/lib/server/campaigns/create-campaign");
const { drawCampaignItems } = await import("@/lib/server/campaigns/draw-items");
const { extendCampaign } = await import("@/lib/server/campaigns/extend-campaign");
const { addExtensionItems } = await import("@/lib/server/campaigns/extension-items");
const { deleteCampaign } = await import("@/lib/server/campaigns/delete-campaign");
const { removeCampaign } = await import("@/lib/server/campaigns/remove-campaign");
const { RECORDS_DRAWN_IN_REQUEST } = await import("@/lib/campaigns/item-draw");
const { stopBoss } = await import("@/lib/server/workers/boss");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");

type Size = "full" | "in-request";
type Timing = {
  sampling: "random" | "suspicion";
  size: Size;
  /** createCampaign, until it answers. */
  createMs: number;
  /** The draw job, for a sample drawn by one; null when the request drew it. */
  drawMs: number | null;
  items: number;
  deleteMs: number;
};

/**
 * A campaign of 100 records a language grown to every record, then deleted: each request's answer
 * and its job's time (the job called here as a worker would), in milliseconds.
 */
async function timeExtensionAndDeletion(
  client: pg.Client,
  admin: Awaited<ReturnType<typeof upsertUserFromCli>>["actor"],
  records: number,
): Promise<Record<string, number | string>> {
  const campaign = await createCampaign({
    actor: admin,
    input: {
      dataset: options.dataset,
      name: `bench-extend-${Date.now().toString(36)}`,
      seed: "bench-extend",
      perLanguage: 100,
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  if (campaign.itemDraw) await drawCampaignItems({ campaignId: campaign.id });
  const loadBefore = uptime();
  let started = performance.now();
  const extension = await extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: null } });
  const extendAnswerMs = performance.now() - started;
  const { id: extensionId } = (
    await client.query<{ id: string }>(`SELECT id FROM "CampaignExtension" WHERE "campaignId" = $1`, [campaign.id])
  ).rows[0] ?? { id: "" };
  started = performance.now();
  const added = await addExtensionItems({ extensionId });
  const extendJobMs = performance.now() - started;
  started = performance.now();
  const deletion = await deleteCampaign({ actor: admin, campaignId: campaign.id });
  const deleteAnswerMs = performance.now() - started;
  started = performance.now();
  const removed = await removeCampaign({ campaignId: campaign.id });
  const deleteJobMs = performance.now() - started;
  const loadAfter = uptime();
  console.error(
    `Extension to all ${records.toLocaleString("en-US")} records: answered ${extension.status} in ${ms(extendAnswerMs)} ms, the job ${JSON.stringify(added)} in ${(extendJobMs / 1000).toFixed(2)} s. ` +
      `Deletion: answered ${deletion.status} in ${ms(deleteAnswerMs)} ms, the job ${removed.outcome} in ${(deleteJobMs / 1000).toFixed(2)} s. Load: ${loadBefore} → ${loadAfter}`,
  );
  return {
    extendAnswerMs: ms(extendAnswerMs),
    extendAnswer: extension.status,
    extendJobMs: ms(extendJobMs),
    extendAdded: added.outcome === "added" ? added.added : 0,
    deleteAnswerMs: ms(deleteAnswerMs),
    deleteAnswer: deletion.status,
    deleteJobMs: ms(deleteJobMs),
  };
}

async function main(): Promise<void> {
  const database = await openDatabase({ log: (message) => console.error(message) });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows: byLanguage } = await client.query<{ language: string; n: number }>(
      `SELECT r.language, count(*)::int AS n FROM "Record" r JOIN "Dataset" d ON d.id = r."datasetId"
       WHERE d.name = $1 GROUP BY 1`,
      [options.dataset],
    );
    const records = byLanguage.reduce((sum, row) => sum + row.n, 0);
    if (records === 0)
      throw new Error(`The dataset "${options.dataset}" has no records in ${process.env.VERITY_DATA_DIR}.`);
    const languages = byLanguage.map((row) => row.language);
    // The largest dataset the request still draws from itself: the bench dataset's first records.
    const smallDataset = `${options.dataset}-first-${RECORDS_DRAWN_IN_REQUEST}`;
    await client.query(`DELETE FROM "Dataset" WHERE name = $1`, [smallDataset]);
    await client.query(
      `WITH small AS (INSERT INTO "Dataset" (id, name) VALUES ('ds_' || md5($1), $1) RETURNING id)
       INSERT INTO "Record" ("datasetId", key, line, language, difficulty, question, "canonicalSolution", "demoTestFunc", "fullTestFunc")
       SELECT small.id, r.key, r.line, r.language, r.difficulty, r.question, r."canonicalSolution", r."demoTestFunc", r."fullTestFunc"
       FROM small, (SELECT * FROM "Record" WHERE "datasetId" = (SELECT id FROM "Dataset" WHERE name = $2) ORDER BY id LIMIT $3) r`,
      [smallDataset, options.dataset, RECORDS_DRAWN_IN_REQUEST],
    );
    const { actor: admin } = await upsertUserFromCli({
      actor: SYSTEM_ACTOR.cli,
      email: "admin@bench-campaign-create.test",
      role: "ADMIN",
      languages: [],
    });
    console.error(
      `${records.toLocaleString("en-US")} records in "${options.dataset}" (${languages.length} languages). Load: ${uptime()}`,
    );
    const timings: Timing[] = [];
    for (let run = 0; run < RUNS; run++) {
      for (const size of ["full", "in-request"] as const) {
        for (const sampling of ["random", "suspicion"] as const) {
          const name = `bench-create-${sampling}-${size}-${Date.now().toString(36)}`;
          const started = performance.now();
          const campaign = await createCampaign({
            actor: admin,
            input: {
              dataset: size === "full" ? options.dataset : smallDataset,
              name,
              seed: `bench-${run}`,
              overlap: 1,
              agreementFraction: 0,
              blind: false,
              sampling,
              finalRule: "consensus",
              leaseMinutes: 30,
            },
          });
          const createMs = performance.now() - started;
          let drawMs: number | null = null;
          if (campaign.itemDraw) {
            const drawStarted = performance.now();
            await drawCampaignItems({ campaignId: campaign.id });
            drawMs = performance.now() - drawStarted;
          }
          const items = Number(
            (
              await client.query<{ n: string }>(`SELECT count(*) AS n FROM "CampaignItem" WHERE "campaignId" = $1`, [
                campaign.id,
              ])
            ).rows[0].n,
          );
          const deleteStarted = performance.now();
          await client.query(`DELETE FROM "Campaign" WHERE id = $1`, [campaign.id]);
          const deleteMs = performance.now() - deleteStarted;
          timings.push({ sampling, size, createMs, drawMs, items, deleteMs });
          console.error(
            `${sampling}, ${size}: ${items} items; answered in ${(createMs / 1000).toFixed(2)} s${drawMs === null ? " (drawn in the request)" : `, drawn by the job in ${(drawMs / 1000).toFixed(2)} s`}; removed in ${(deleteMs / 1000).toFixed(2)} s. Load: ${uptime()}`,
          );
        }
      }
    }
    await client.query(`DELETE FROM "Dataset" WHERE name = $1`, [smallDataset]);
    const jobs = await timeExtensionAndDeletion(client, admin, records);
    const figures: Record<string, unknown> = { records, recordsDrawnInRequest: RECORDS_DRAWN_IN_REQUEST, ...jobs };
    for (const size of ["full", "in-request"] as const)
      for (const sampling of ["random", "suspicion"] as const) {
        const mine = timings.filter((timing) => timing.sampling === sampling && timing.size === size);
        if (mine.length === 0) continue;
        figures[`${sampling}${size === "full" ? "" : "InRequest"}`] = {
          items: mine[0].items,
          createMs: mine.map((timing) => ms(timing.createMs)),
          drawMs: mine.map((timing) => (timing.drawMs === null ? null : ms(timing.drawMs))),
          deleteMs: mine.map((timing) => ms(timing.deleteMs)),
        };
      }
    benchRun.finish(figures);
  } finally {
    await client.end();
    await stopBoss();
    await disconnectPrisma();
    await closePgPool();
    await database.stop();
  }
}

await main();
process.exit(0);
