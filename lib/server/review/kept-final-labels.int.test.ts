// Property: the final labels and queue memberships kept on each item (verity_kept_final_labels, kept
// by triggers) equal the definition recomputed from scratch (verity_final_labels) and `finalLabel`,
// whatever the writes and their order: labels given and revised, flags, adjudications decided and
// revised, the critic's verdict written, changed and removed, execution results, the campaign's rule
// and taxonomy changing, the campaign extended. The rows are compared after every write, so a write
// whose trigger is missing cannot hide behind a later one that happens to repair it. A second test
// writes one item from several connections at once. The (campaign, annotator) counts the review
// page's annotator filter reads, and each item's label counters, are compared with a count of the
// labels the same way; a third test counts how often a label's write recomputes its item.
import fc from "fast-check";
import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";

import { type AggregationRule, finalLabel } from "@/lib/metrics";
import { QUEUES, type QueueName } from "@/lib/review/queues";
import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { withFreshDatabase } from "@/lib/testing/fresh-database";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { extendCampaign } from "@/lib/server/campaigns/extend-campaign";
import { prisma } from "@/lib/server/db/client";
import { applyMigrations } from "@/lib/server/db/migrate";
import { definedFinalLabelsOf, finalLabelsOf } from "./final-labels";
import { importRecords } from "@/lib/server/imports/imports";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { adjudicateItem } from "./review";

const LANGUAGES = ["python", "cpp"];
const RULES: AggregationRule[] = ["consensus", "majority", "strict"];
const CATEGORY_KEYS = ["precision", "weak-coverage", "other"];

const label = fc.record({
  valid: fc.boolean(),
  categories: fc.subarray(CATEGORY_KEYS),
  needsReview: fc.integer({ min: 0, max: 5 }).map((roll) => roll === 0),
});
const write = fc.oneof(
  fc.record({ kind: fc.constant("label" as const), annotator: fc.nat(2), item: fc.nat(), label }),
  fc.record({ kind: fc.constant("adjudicate" as const), item: fc.nat(), label }),
  fc.record({
    kind: fc.constant("critic" as const),
    record: fc.nat(),
    overallPass: fc.option(fc.boolean(), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant("execution" as const),
    record: fc.nat(),
    executableValid: fc.option(fc.boolean(), { nil: null }),
  }),
  fc.record({ kind: fc.constant("rule" as const), rule: fc.constantFrom(...RULES) }),
  fc.record({
    kind: fc.constant("taxonomy" as const),
    key: fc.constantFrom(...CATEGORY_KEYS),
    invalidating: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("extend" as const) }),
);
const history = fc.record({
  records: fc.array(fc.constantFrom(...LANGUAGES), { minLength: 1, maxLength: 5 }),
  rule: fc.constantFrom(...RULES),
  writes: fc.array(write, { minLength: 1, maxLength: 30 }),
});
type Write = typeof write extends fc.Arbitrary<infer T> ? T : never;

let admin: Actor;
let reviewer: Actor;
let annotators: Actor[];

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  reviewer = await makeUser("REVIEWER");
  annotators = await Promise.all([0, 1, 2].map(() => makeUser("ANNOTATOR", LANGUAGES)));
});

/** A dataset of records in these languages and a campaign of overlap 3 over one record per language (extending takes the rest). */
async function makeCampaign(languages: string[], rule: AggregationRule) {
  const dataset = uniqueName("kept");
  const tag = dataset.replaceAll("-", "_");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(languages.map((language, index) => makeRecord(`k${index}_${tag}`, { language })))),
    skipInvalid: false,
    origin: "api",
  });
  const campaign = await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("kept"),
      overlap: 3,
      perLanguage: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: rule,
      leaseMinutes: 30,
    },
  });
  const records = await prisma().record.findMany({ where: { dataset: { name: dataset } }, select: { id: true } });
  return { campaignId: campaign.id, recordIds: records.map((record) => record.id).sort((a, b) => a - b) };
}

/** Applies one write through the data function that makes it, or (evidence, rule, taxonomy) as their writers store it. */
async function apply(campaignId: string, recordIds: number[], step: Write): Promise<void> {
  const items = await prisma().campaignItem.findMany({
    where: { campaignId },
    orderBy: { position: "asc" },
    select: { id: true, recordId: true },
  });
  switch (step.kind) {
    case "label": {
      const itemId = items[step.item % items.length].id;
      const actor = annotators[step.annotator];
      const held = await prisma().assignment.findUnique({
        where: { itemId_userId: { itemId, userId: actor.id } },
        select: { id: true },
      });
      if (!held) await holdItem({ userId: actor.id, itemId });
      await submitAnnotation({ actor, itemId, input: { ...step.label, note: null, activeMs: 1000 } });
      return;
    }
    case "adjudicate": {
      const itemId = items[step.item % items.length].id;
      const current = await prisma().adjudication.findUnique({ where: { itemId }, select: { revision: true } });
      await adjudicateItem({
        actor: reviewer,
        itemId,
        input: {
          valid: step.label.valid,
          categories: step.label.categories,
          reason: "decided",
          baseRevision: current?.revision,
        },
      });
      return;
    }
    case "critic": {
      const recordId = recordIds[step.record % recordIds.length];
      if (step.overallPass === undefined) await prisma().criticVerdict.deleteMany({ where: { recordId } });
      else
        await prisma().criticVerdict.upsert({
          where: { recordId },
          create: { recordId, overallPass: step.overallPass, failedRules: [], raw: "{}" },
          update: { overallPass: step.overallPass },
        });
      return;
    }
    case "execution":
      await prisma().record.update({
        where: { id: recordIds[step.record % recordIds.length] },
        data: { executableValid: step.executableValid },
      });
      return;
    case "rule":
      await prisma().campaign.update({ where: { id: campaignId }, data: { finalRule: step.rule } });
      return;
    case "taxonomy":
      await prisma().errorCategory.updateMany({
        where: { campaignId, key: step.key },
        data: { invalidating: step.invalidating },
      });
      return;
    case "extend":
      await extendCampaign({ actor: admin, campaignId, input: { perLanguage: null } });
      return;
  }
}

/** Every column of the kept rows and of the definition's rows, item by item. */
async function keptAndDefined(campaignId: string) {
  const read = (relation: string) =>
    prisma().$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM ${relation} ORDER BY item_id`, campaignId);
  const annotators = (sql: string) => prisma().$queryRawUnsafe<Record<string, unknown>[]>(sql, campaignId);
  return {
    kept: {
      rows: await read(finalLabelsOf("ARRAY[$1]::text[]")),
      annotators: await annotators(
        `SELECT "userId", labels FROM "CampaignAnnotator" WHERE "campaignId" = $1 ORDER BY "userId"`,
      ),
      counters: await annotators(
        `SELECT id, "labelCount" AS labels, "validCount" AS valid, "labellerIds" AS labellers, "labelValids" AS verdicts
         FROM "CampaignItem" WHERE "campaignId" = $1 ORDER BY id`,
      ),
    },
    defined: {
      rows: await read(definedFinalLabelsOf("ARRAY[$1]::text[]")),
      annotators: await annotators(
        `SELECT a."userId", count(*)::int AS labels FROM "Annotation" a JOIN "CampaignItem" i ON i.id = a."itemId"
         WHERE i."campaignId" = $1 AND NOT i.gold GROUP BY 1 ORDER BY 1`,
      ),
      counters: await annotators(
        `SELECT i.id, count(a.id)::int AS labels, (count(a.id) FILTER (WHERE a.valid))::int AS valid,
                coalesce(array_agg(a."userId" ORDER BY a."userId") FILTER (WHERE a.id IS NOT NULL), '{}') AS labellers,
                coalesce(array_agg(a.valid ORDER BY a."userId") FILTER (WHERE a.id IS NOT NULL), '{}') AS verdicts
         FROM "CampaignItem" i LEFT JOIN "Annotation" a ON a."itemId" = i.id
         WHERE i."campaignId" = $1 GROUP BY i.id ORDER BY i.id`,
      ),
    },
  };
}

/** The kept rows against `finalLabel` and the queues' definition, over the labels and evidence as stored. */
async function expectKeptEqualsStatement(campaignId: string) {
  const campaign = await prisma().campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: { finalRule: true, categories: { select: { key: true, invalidating: true } } },
  });
  const invalidatingKeys = new Set(campaign.categories.filter((c) => c.invalidating).map((c) => c.key));
  const items = await prisma().campaignItem.findMany({
    where: { campaignId },
    select: {
      id: true,
      annotations: { select: { valid: true, categories: true, needsReview: true } },
      adjudication: { select: { valid: true, categories: true } },
      record: { select: { executableValid: true, critic: { select: { overallPass: true } } } },
    },
  });
  const kept = new Map(
    (
      await prisma().$queryRawUnsafe<
        {
          item_id: string;
          final_valid: boolean | null;
          decided_by: string | null;
          final_categories: string[];
          review_reasons: number;
        }[]
      >(
        `SELECT item_id, final_valid, decided_by, final_categories, review_reasons FROM ${finalLabelsOf("ARRAY[$1]::text[]")}`,
        campaignId,
      )
    ).map((row) => [row.item_id, row]),
  );
  expect(kept.size).toBe(items.length);
  for (const item of items) {
    const final = finalLabel({
      rule: campaign.finalRule,
      labels: item.annotations,
      adjudication: item.adjudication,
      invalidatingKeys,
    });
    const row = kept.get(item.id)!;
    expect({ valid: row.final_valid, categories: row.final_categories, decidedBy: row.decided_by }).toEqual(final);
    const critic = item.record.critic?.overallPass ?? null;
    const valids = item.annotations.map((a) => a.valid);
    const queues: Record<QueueName, boolean> =
      item.adjudication || item.annotations.length === 0
        ? { annotators: false, critic: false, execution: false, flagged: false }
        : {
            annotators: valids.includes(true) && valids.includes(false),
            critic: final.valid !== null && critic !== null && final.valid !== critic,
            execution:
              (final.valid === true && item.record.executableValid === false) ||
              (final.valid === false && item.record.executableValid === true && critic === true),
            flagged: item.annotations.some((a) => a.needsReview),
          };
    expect(QUEUES.filter((queue, index) => (row.review_reasons & (1 << index)) !== 0)).toEqual(
      QUEUES.filter((queue) => queues[queue]),
    );
  }
}

/** The superuser, on the app's database: for settings and statistics the app's role may not touch. */
async function connectSuperuser(): Promise<pg.Client> {
  const url = new URL(inject("adminDatabaseUrl"));
  url.pathname = new URL(process.env.DATABASE_URL!).pathname;
  const superuser = new pg.Client({ connectionString: url.toString() });
  await superuser.connect();
  return superuser;
}

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows": number;
  "Rows Removed by Filter"?: number;
  "Actual Loops": number;
  Plans?: PlanNode[];
};

/** Rows a plan read from one table: what its scans of it returned plus what their filters threw away. */
function scannedRows(node: PlanNode, table: string): number {
  const own =
    node["Relation Name"] === table
      ? (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"]
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + scannedRows(child, table), 0);
}

describe("kept final labels", () => {
  it("equal the definition recomputed from scratch after every write, in any order", async () => {
    await fc.assert(
      fc.asyncProperty(history, async ({ records, rule, writes }) => {
        const { campaignId, recordIds } = await makeCampaign(records, rule);
        for (const step of writes) {
          await apply(campaignId, recordIds, step);
          const { kept, defined } = await keptAndDefined(campaignId);
          expect(kept, JSON.stringify(step)).toEqual(defined);
        }
        await expectKeptEqualsStatement(campaignId);
      }),
      { seed: Number(process.env.KEPT_FINAL_LABELS_SEED ?? 20261201), numRuns: 20 },
    );
  }, 600_000);

  it("stay equal to the definition when one item is written from several connections at once", async () => {
    const { campaignId, recordIds } = await makeCampaign(["python"], "majority");
    const [item] = await prisma().campaignItem.findMany({ where: { campaignId }, select: { id: true } });
    for (const annotator of annotators) await holdItem({ userId: annotator.id, itemId: item.id });
    for (let round = 0; round < 4; round++) {
      await Promise.all([
        ...annotators.map((actor, index) =>
          submitAnnotation({
            actor,
            itemId: item.id,
            input: {
              valid: (round + index) % 2 === 0,
              categories: ["precision"],
              needsReview: round === index,
              note: null,
              activeMs: 1000,
            },
          }),
        ),
        prisma().criticVerdict.upsert({
          where: { recordId: recordIds[0] },
          create: { recordId: recordIds[0], overallPass: round % 2 === 0, failedRules: [], raw: "{}" },
          update: { overallPass: round % 2 === 0 },
        }),
        prisma().record.update({ where: { id: recordIds[0] }, data: { executableValid: round % 3 === 0 } }),
      ]);
      const { kept, defined } = await keptAndDefined(campaignId);
      expect(kept).toEqual(defined);
    }
    await expectKeptEqualsStatement(campaignId);
  }, 120_000);

  it("move an item's label counters with its labels, recomputing the item once per write", async () => {
    const { campaignId } = await makeCampaign(["python"], "majority");
    const [item] = await prisma().campaignItem.findMany({ where: { campaignId }, select: { id: true } });
    const [first, second] = annotators;
    // Function call counts need track_functions, a superuser's setting.
    const superuser = await connectSuperuser();
    // The session's call counts are flushed at most once a second, so they may include earlier
    // transactions: a write's own calls are the difference across it, inside its transaction.
    const calls = async () =>
      (
        await superuser.query<{ calls: number }>(
          `SELECT coalesce(pg_stat_get_xact_function_calls('verity_keep_final_labels(text[])'::regprocedure), 0)::int AS calls`,
        )
      ).rows[0].calls;
    /** One write in its own transaction: how often it recomputed a final label, and the item's counters after it. */
    const write = async (sql: string, params: unknown[]) => {
      await superuser.query("BEGIN");
      await superuser.query("SET LOCAL track_functions = 'pl'");
      const before = await calls();
      await superuser.query(sql, params);
      const recomputed = (await calls()) - before;
      const {
        rows: [counters],
      } = await superuser.query<{ labels: number; valid: number }>(
        `SELECT "labelCount" AS labels, "validCount" AS valid FROM "CampaignItem" WHERE id = $1`,
        [item.id],
      );
      await superuser.query("COMMIT");
      const { kept, defined } = await keptAndDefined(campaignId);
      expect(kept, sql).toEqual(defined);
      return { recomputed, ...counters };
    };
    const give = (userId: string, valid: boolean) =>
      write(
        `INSERT INTO "Annotation" (id, "itemId", "userId", valid, categories, "preRevealCategories", "activeMs", "updatedAt")
         VALUES (gen_random_uuid()::text, $1, $2, $3, '{}', '{}', 1000, now())`,
        [item.id, userId, valid],
      );
    try {
      expect(await give(first.id, true)).toEqual({ recomputed: 1, labels: 1, valid: 1 });
      expect(await give(second.id, false)).toEqual({ recomputed: 1, labels: 2, valid: 1 });
      const revise = (set: string) =>
        write(`UPDATE "Annotation" SET ${set} WHERE "itemId" = $1 AND "userId" = $2`, [item.id, first.id]);
      expect(await revise("valid = false")).toEqual({ recomputed: 1, labels: 2, valid: 0 });
      expect(await revise("note = 'only the note'")).toEqual({ recomputed: 0, labels: 2, valid: 0 });
      // A label removed without the app (its annotator deleted, say) leaves the counters right.
      expect(
        await write(`DELETE FROM "Annotation" WHERE "itemId" = $1 AND "userId" = $2`, [item.id, second.id]),
      ).toEqual({ recomputed: 1, labels: 1, valid: 0 });
      // A label moved to another annotator (no writer does this) moves its (campaign, annotator) count.
      const other = await makeUser("ANNOTATOR", LANGUAGES);
      expect(
        await write(`UPDATE "Annotation" SET "userId" = $3 WHERE "itemId" = $1 AND "userId" = $2`, [
          item.id,
          first.id,
          other.id,
        ]),
      ).toEqual({ recomputed: 0, labels: 1, valid: 0 });
    } finally {
      await superuser.end();
    }

    // The app's submit path writes the label in one statement and leaves the counters to it.
    await holdItem({ userId: annotators[2].id, itemId: item.id });
    await submitAnnotation({
      actor: annotators[2],
      itemId: item.id,
      input: { valid: true, categories: [], needsReview: false, note: null, activeMs: 1000 },
    });
    expect(
      await prisma().campaignItem.findUniqueOrThrow({
        where: { id: item.id },
        select: { labelCount: true, validCount: true },
      }),
    ).toEqual({ labelCount: 2, validCount: 1 });
  }, 60_000);

  it("keep a label's item by its key, whatever the planner's statistics know of its campaign", async () => {
    // A campaign created after the table was last analysed is unknown to the statistics, which then
    // say it holds about one item. Keeping a label's item once looked it up within its campaign, and
    // the planner walked the campaign's index: every one of its items, on every submit. Shown on a
    // database of its own, whose statistics know exactly one other campaign.
    const ITEMS = 2_000;
    await withFreshDatabase("unanalysed", async (url) => {
      await applyMigrations(url);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`INSERT INTO "Dataset" (id, name) VALUES ('ds', 'unanalysed')`);
        await client.query(
          `INSERT INTO "Record" ("datasetId", key, line, language, question, "canonicalSolution", "demoTestFunc", "fullTestFunc")
           SELECT 'ds', 'r' || n, n, 'python', 'q', 's', 'd', 'f' FROM generate_series(1, $1::int * 2) n`,
          [ITEMS],
        );
        const addCampaign = async (id: string, records: "first" | "second") => {
          await client.query(`INSERT INTO "Campaign" (id, name, "datasetId", seed) VALUES ($1, $1, 'ds', '1')`, [id]);
          await client.query(
            `INSERT INTO "CampaignItem" (id, "campaignId", "recordId", language, position, target)
             SELECT $1 || r.id, $1, r.id, 'python', r.line, 1 FROM "Record" r
             WHERE (r.line <= $2) = ($3 = 'first')`,
            [id, ITEMS, records],
          );
        };
        await addCampaign("analysed", "first");
        await client.query(`ANALYZE "CampaignItem"`);
        await client.query(`ALTER TABLE "CampaignItem" SET (autovacuum_enabled = false)`);
        await addCampaign("new", "second");
        const itemId = `new${ITEMS + 1}`;
        // The rows of "CampaignItem" a statement read, from its plan as run.
        const rowsRead = async (sql: string) => {
          const [{ "QUERY PLAN": plans }] = (
            await client.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, [
              itemId,
            ])
          ).rows;
          return scannedRows(plans[0].Plan, "CampaignItem");
        };
        // The old copy filtered the campaign's relation by the item: both predicates on the item.
        const byCampaign = await rowsRead(
          `SELECT id FROM "CampaignItem" i WHERE i."campaignId" = ANY(ARRAY['new']) AND NOT i.gold AND i.id = ANY(ARRAY[$1::text])`,
        );
        // What it is copied from now (verity_keep_final_labels).
        const byKey = await rowsRead(`SELECT * FROM verity_final_labels_of_items(ARRAY[$1::text])`);
        expect({ byCampaign, byKey }).toEqual({ byCampaign: ITEMS, byKey: 1 });

        await client.query(`INSERT INTO "User" (id, email, role) VALUES ('u', 'u@unanalysed.test', 'ANNOTATOR')`);
        await client.query(
          `INSERT INTO "Annotation" (id, "itemId", "userId", valid, "updatedAt") VALUES ('a', $1, 'u', false, now())`,
          [itemId],
        );
        const {
          rows: [item],
        } = await client.query<{ n: number; final_valid: boolean | null }>(
          `SELECT n, final_valid FROM verity_kept_final_labels(ARRAY['new']) WHERE item_id = $1`,
          [itemId],
        );
        expect(item).toEqual({ n: 1, final_valid: false });
      } finally {
        await client.end();
      }
    });
  }, 120_000);
});
