// Property: every reader of final labels agrees with `finalLabel` (lib/metrics/final-label.ts). Random
// campaigns (each rule, random labels with categories and flags, revisions, adjudications, critic
// verdicts and execution results; two campaigns over one dataset for the cross-campaign rule) are
// written through the real data functions, then the report, the dataset report, the exports, the
// review queues page by page, each queued item's previous and next, the agreement figures and the
// item counters are compared with what the pure definitions say about the labels made here.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import {
  type AggregationRule,
  type AnnotatorLabel,
  type FinalLabel,
  finalLabel,
  finalVerdict,
  strongestEvidence,
} from "@/lib/metrics";
import {
  annotatorStatistics,
  criticRuleMatches,
  humanAgreement,
  humanVsCritic,
  humanVsExecution,
  type LabelledItem,
} from "@/lib/metrics/campaign-agreement";
import { QUEUES, type QueueName } from "@/lib/review/queues";
import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { getCampaignAgreement } from "@/lib/server/review/agreement";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { exportCampaign } from "@/lib/server/reports/exports";
import { importRecords } from "@/lib/server/imports/imports";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { getCampaignReport, getDatasetReport } from "@/lib/server/reports/reports";
import { adjudicateItem, getQueueNeighbours, listReviewQueue } from "@/lib/server/review/review";

const INVALIDATING = new Set(
  DEFAULT_CATEGORIES.filter((category) => category.invalidating).map((category) => category.key),
);
const LANGUAGES = ["python", "cpp"];
const DIFFICULTIES = ["easy", "hard"];

const label = fc.record({
  valid: fc.boolean(),
  categories: fc.subarray(["precision", "weak-coverage", "other"]),
  // One label in eight asks for review.
  needsReview: fc.integer({ min: 0, max: 7 }).map((roll) => roll === 0),
});
// The critic's verdict and the failed rules it names (mapped to "precision" and "other"), and execution.
const evidence = {
  critic: fc.option(
    fc.record({
      overallPass: fc.boolean(),
      failedRules: fc.subarray(["Improper Precision Handling", "Other Issues"]),
    }),
    { nil: null },
  ),
  executableValid: fc.option(fc.boolean(), { nil: null }),
};
// Up to three annotators; the first may revise their label; a reviewer may decide.
const itemPlan = fc.record({
  labels: fc.array(label, { maxLength: 3 }),
  revision: fc.option(label, { nil: undefined }),
  adjudication: fc.option(label, { nil: undefined }),
});
const scenario = fc
  .record({
    records: fc.array(
      fc.record({
        language: fc.constantFrom(...LANGUAGES),
        difficulty: fc.constantFrom(...DIFFICULTIES),
        ...evidence,
      }),
      { minLength: 1, maxLength: 4 },
    ),
    rules: fc.array(fc.constantFrom<AggregationRule>("consensus", "majority", "strict"), {
      minLength: 1,
      maxLength: 2,
    }),
  })
  .chain(({ records, rules }) =>
    fc.record({
      records: fc.constant(records),
      campaigns: fc.tuple(
        ...rules.map((rule) => fc.record({ rule: fc.constant(rule), items: fc.tuple(...records.map(() => itemPlan)) })),
      ),
    }),
  );
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

type Expected = {
  campaignId: string;
  recordIndex: number;
  itemId: string;
  labels: (AnnotatorLabel & { userId: string; needsReview: boolean })[];
  adjudicated: boolean;
  final: FinalLabel;
};

let admin: Actor;
let reviewer: Actor;
let annotators: Actor[];

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  reviewer = await makeUser("REVIEWER");
  annotators = [
    await makeUser("ANNOTATOR", LANGUAGES),
    await makeUser("ANNOTATOR", LANGUAGES),
    await makeUser("ANNOTATOR", LANGUAGES),
  ];
});

/** Writes a scenario through the data functions; returns each item's labels as they stand and their final label by `finalLabel`. */
async function writeScenario({ records, campaigns }: Scenario) {
  const dataset = uniqueName("finals");
  const tag = dataset.replaceAll("-", "_");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(
      toJsonl(
        records.map(({ language, difficulty }, index) =>
          makeRecord(`f${index}_${tag}`, { language, difficulty, index }),
        ),
      ),
    ),
    skipInvalid: false,
    origin: "api",
  });
  const stored = await prisma().record.findMany({
    where: { dataset: { name: dataset } },
    select: { id: true, extra: true },
  });
  for (const { id, extra } of stored) {
    const { critic, executableValid } = records[(extra as { index: number }).index];
    if (critic) await prisma().criticVerdict.create({ data: { recordId: id, ...critic, raw: "{}" } });
    await prisma().record.update({ where: { id }, data: { executableValid } });
  }
  const expected: Expected[][] = [];
  for (const plan of campaigns) {
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("finals"),
        overlap: 3,
        agreementFraction: 0,
        blind: false,
        finalRule: plan.rule,
        leaseMinutes: 30,
      },
    });
    const items = await prisma().campaignItem.findMany({
      where: { campaignId: campaign.id },
      select: { id: true, record: { select: { extra: true } } },
    });
    const byIndex = new Map(items.map((item) => [(item.record.extra as { index: number }).index, item.id]));
    const written: Expected[] = [];
    for (const [recordIndex, itemPlan] of plan.items.entries()) {
      const itemId = byIndex.get(recordIndex)!;
      const labels = itemPlan.labels.map((planned, index) => ({ ...planned, userId: annotators[index].id }));
      for (const [index, planned] of itemPlan.labels.entries()) {
        await holdItem({ userId: annotators[index].id, itemId });
        await submitAnnotation({
          actor: annotators[index],
          itemId,
          input: { ...planned, note: null, activeMs: 1000 + 4000 * index },
        });
      }
      if (itemPlan.revision && labels.length > 0) {
        await submitAnnotation({
          actor: annotators[0],
          itemId,
          input: { ...itemPlan.revision, note: "revised", activeMs: 1000 },
        });
        labels[0] = { ...itemPlan.revision, userId: annotators[0].id };
      }
      if (itemPlan.adjudication)
        await adjudicateItem({ actor: reviewer, itemId, input: { ...itemPlan.adjudication, reason: "decided" } });
      const final = finalLabel({
        rule: plan.rule,
        labels,
        adjudication: itemPlan.adjudication ?? null,
        invalidatingKeys: INVALIDATING,
      });
      written.push({
        campaignId: campaign.id,
        recordIndex,
        itemId,
        labels,
        adjudicated: !!itemPlan.adjudication,
        final,
      });
    }
    expected.push(written);
  }
  const keys = await prisma().record.findMany({
    where: { dataset: { name: dataset } },
    select: { key: true, extra: true },
  });
  const keyOf = new Map(keys.map((record) => [(record.extra as { index: number }).index, record.key]));
  return { dataset, expected, keyOf };
}

/** The report's counts, recomputed from the expected final labels of the items that count. */
function expectedCounts(records: Scenario["records"], counted: Expected[]) {
  const rows: Record<string, { sampled: number; labelled: number; resolved: number; valid: number }> = {};
  const difficulty: Record<string, { sampled: number; resolved: number; valid: number }> = {};
  const categories: Record<string, Record<string, number>> = {};
  for (const item of counted) {
    const { language, difficulty: level } = records[item.recordIndex];
    const row = (rows[language] ??= { sampled: 0, labelled: 0, resolved: 0, valid: 0 });
    const byLevel = (difficulty[level] ??= { sampled: 0, resolved: 0, valid: 0 });
    row.sampled += 1;
    byLevel.sampled += 1;
    if (item.labels.length > 0) row.labelled += 1;
    if (item.final.valid !== null) {
      row.resolved += 1;
      byLevel.resolved += 1;
    }
    if (item.final.valid === true) {
      row.valid += 1;
      byLevel.valid += 1;
    }
    if (item.final.valid === false)
      for (const key of item.final.categories)
        (categories[language] ??= {})[key] = (categories[language]?.[key] ?? 0) + 1;
  }
  return { rows, difficulty, categories };
}

function expectReport(
  report: Awaited<ReturnType<typeof getCampaignReport>>,
  expected: ReturnType<typeof expectedCounts>,
) {
  const rows = Object.fromEntries(
    Object.entries(report.byLanguage).map(([language, row]) => [
      language,
      { sampled: row.sampled, labelled: row.labelled, resolved: row.resolved, valid: row.valid },
    ]),
  );
  expect(rows).toEqual(expected.rows);
  const difficulty = Object.fromEntries(
    Object.entries(report.byDifficulty).map(([level, row]) => [
      level,
      { sampled: row.sampled, resolved: row.resolved, valid: row.valid },
    ]),
  );
  expect(difficulty).toEqual(expected.difficulty);
  expect(report.categoriesByLanguage).toEqual(expected.categories);
}

async function readAll(stream: AsyncGenerator<string>): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += chunk;
  return text;
}

/** The queues an item is in, by the queues' definition over its final label (adjudicated: none). */
function expectedQueues(record: Scenario["records"][number], item: Expected): QueueName[] {
  if (item.adjudicated || item.labels.length === 0) return [];
  const human = item.final.valid;
  const critic = record.critic?.overallPass ?? null;
  const valids = item.labels.map((l) => l.valid);
  const queues: Record<QueueName, boolean> = {
    annotators: valids.includes(true) && valids.includes(false),
    critic: human !== null && critic !== null && human !== critic,
    execution:
      (human === true && record.executableValid === false) ||
      (human === false && record.executableValid === true && critic === true),
    flagged: item.labels.some((l) => l.needsReview),
  };
  return QUEUES.filter((queue) => queues[queue]);
}

/**
 * The review queues, read page by page (two rows a page) under every queue filter, hold exactly the
 * items the definition puts there, most reasons first then campaign order, each with its final label;
 * each item's previous and next are its neighbours in that order, and an item outside the queue
 * leads to the queue's first.
 */
async function expectQueues(records: Scenario["records"], items: Expected[]) {
  const campaignId = items[0].campaignId;
  const positions = new Map(
    (await prisma().campaignItem.findMany({ where: { campaignId }, select: { id: true, position: true } })).map(
      (item) => [item.id, item.position],
    ),
  );
  const queued = items
    .map((item) => ({ item, queues: expectedQueues(records[item.recordIndex], item) }))
    .filter(({ queues }) => queues.length > 0)
    .sort((a, b) => b.queues.length - a.queues.length || positions.get(a.item.itemId)! - positions.get(b.item.itemId)!);
  for (const queue of [undefined, ...QUEUES]) {
    const listed = queued.filter(({ queues }) => !queue || queues.includes(queue));
    const rows = [];
    let cursor = null;
    do {
      const page: Awaited<ReturnType<typeof listReviewQueue>> = await listReviewQueue({
        actor: reviewer,
        campaignId,
        filters: { queue },
        cursor,
        limit: 2,
      });
      expect(page.counts).toEqual(
        Object.fromEntries(QUEUES.map((name) => [name, queued.filter(({ queues }) => queues.includes(name)).length])),
      );
      rows.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(rows.map((row) => [row.itemId, Object.keys(row.reasons), row.final])).toEqual(
      listed.map(({ item, queues }) => [item.itemId, queues, item.final]),
    );
    for (const [index, { item }] of listed.entries()) {
      expect(
        await getQueueNeighbours({ actor: reviewer, campaignId, itemId: item.itemId, filters: { queue } }),
      ).toEqual(
        expect.objectContaining({
          total: listed.length,
          position: index + 1,
          previousItemId: listed[index - 1]?.item.itemId ?? null,
          nextItemId: listed[index + 1]?.item.itemId ?? null,
        }),
      );
    }
    const outside = items.find((item) => !listed.some((entry) => entry.item.itemId === item.itemId));
    if (outside)
      expect(
        await getQueueNeighbours({ actor: reviewer, campaignId, itemId: outside.itemId, filters: { queue } }),
      ).toEqual({
        total: listed.length,
        position: null,
        reasons: {},
        previousItemId: null,
        nextItemId: listed[0]?.item.itemId ?? null,
      });
  }
}

/** Numbers rounded to 9 places, so sums taken in another order compare equal. */
function rounded(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_, v: unknown) => (typeof v === "number" ? Math.round(v * 1e9) / 1e9 : v)));
}

/** The agreement figures, counted in SQL, equal the item-based definitions over the labelled items. */
async function expectAgreement(records: Scenario["records"], items: Expected[]) {
  const campaignId = items[0].campaignId;
  const stored = await prisma().annotation.findMany({
    where: { item: { campaignId } },
    orderBy: { createdAt: "asc" },
    select: { itemId: true, userId: true, valid: true, categories: true, activeMs: true, updatedAt: true },
  });
  const labelled: LabelledItem[] = items
    .filter((item) => item.labels.length > 0)
    .map((item) => {
      const record = records[item.recordIndex];
      return {
        language: record.language,
        labels: stored.filter((label) => label.itemId === item.itemId),
        final: item.final,
        criticPass: record.critic?.overallPass ?? null,
        criticFailedRules: record.critic?.failedRules ?? [],
        executableValid: record.executableValid,
      };
    });
  const mapping = await prisma().errorCategory.findMany({ where: { campaignId }, orderBy: { position: "asc" } });
  const agreement = await getCampaignAgreement({ actor: admin, campaignId });
  const languages = [...new Set(labelled.map((item) => item.language))].sort();
  const perLanguage = <T>(figure: (subset: LabelledItem[]) => T) =>
    Object.fromEntries(
      languages.map((language) => [language, figure(labelled.filter((item) => item.language === language))]),
    );
  expect(
    rounded({
      overall: agreement.overall,
      byLanguage: agreement.byLanguage,
      humanVsCritic: agreement.humanVsCritic,
      humanVsCriticByLanguage: agreement.humanVsCriticByLanguage,
      humanVsExecution: agreement.humanVsExecution,
      humanVsExecutionByLanguage: agreement.humanVsExecutionByLanguage,
      criticRules: agreement.criticRules,
      annotators: agreement.annotators
        .map(({ email: _email, name: _name, gold: _gold, ...stats }) => stats)
        .sort((a, b) => a.userId.localeCompare(b.userId)),
    }),
  ).toEqual(
    rounded({
      overall: humanAgreement(labelled),
      byLanguage: perLanguage(humanAgreement),
      humanVsCritic: humanVsCritic(labelled),
      humanVsCriticByLanguage: perLanguage(humanVsCritic),
      humanVsExecution: humanVsExecution(labelled),
      humanVsExecutionByLanguage: perLanguage(humanVsExecution),
      criticRules: criticRuleMatches(labelled, mapping),
      annotators: annotatorStatistics(labelled).sort((a, b) => a.userId.localeCompare(b.userId)),
    }),
  );
}

describe("final labels", () => {
  it("agree with finalLabel in every reader, under every rule", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (plan) => {
        const { dataset, expected, keyOf } = await writeScenario(plan);
        for (const items of expected) {
          const campaignId = items[0].campaignId;

          // The item counters the report counts with match the annotations.
          const counters = await prisma().campaignItem.findMany({
            where: { campaignId },
            select: { id: true, labelCount: true, validCount: true },
          });
          for (const counter of counters) {
            const item = items.find((candidate) => candidate.itemId === counter.id)!;
            expect({ labelCount: counter.labelCount, validCount: counter.validCount }).toEqual({
              labelCount: item.labels.length,
              validCount: item.labels.filter((l) => l.valid).length,
            });
          }

          expectReport(await getCampaignReport({ actor: admin, campaignId }), expectedCounts(plan.records, items));

          // Exports: one row per item with its final label; the verified subset is the final-Valid records.
          const rows = (await readAll(exportCampaign({ actor: admin, campaignId, what: "labels", format: "jsonl" })))
            .trim()
            .split("\n")
            .map(
              (line) =>
                JSON.parse(line) as {
                  record_key: string;
                  final_label: string;
                  categories: string[];
                  decided_by: string;
                },
            );
          const expectedRows = items.map((item) => ({
            record_key: keyOf.get(item.recordIndex)!,
            final_label: item.final.valid === null ? "unresolved" : item.final.valid ? "valid" : "invalid",
            categories: item.final.categories,
            decided_by: item.final.decidedBy ?? "unresolved",
          }));
          const byKey = (a: { record_key: string }, b: { record_key: string }) =>
            a.record_key.localeCompare(b.record_key);
          expect(
            rows
              .map(({ record_key, final_label, categories, decided_by }) => ({
                record_key,
                final_label,
                categories,
                decided_by,
              }))
              .sort(byKey),
          ).toEqual(expectedRows.sort(byKey));
          const verified = (
            await readAll(exportCampaign({ actor: admin, campaignId, what: "verified", format: "jsonl" }))
          )
            .trim()
            .split("\n")
            .filter(Boolean)
            .map((line) => (JSON.parse(line) as { verification: { record_key: string } }).verification.record_key);
          expect(verified.sort()).toEqual(
            items
              .filter((item) => item.final.valid === true)
              .map((item) => keyOf.get(item.recordIndex)!)
              .sort(),
          );

          await expectQueues(plan.records, items);
          await expectAgreement(plan.records, items);
        }

        // The dataset report keeps, per record, the strongest evidence across campaigns (latest on a tie).
        const strongest = plan.records.map((_, recordIndex) => {
          const candidates = expected
            .map((items) => items[recordIndex])
            .map((item) => ({
              item,
              verdict: item.final,
              counts: { labelCount: item.labels.length, validCount: item.labels.filter((l) => l.valid).length },
            }));
          return strongestEvidence(candidates)!.item;
        });
        expectReport(
          await getDatasetReport({ actor: admin, datasetName: dataset }),
          expectedCounts(plan.records, strongest),
        );
      }),
      { seed: Number(process.env.FINAL_LABELS_SEED ?? 20261130), numRuns: 25 },
    );
  }, 300_000);
});

describe("the SQL verdict", () => {
  it("is finalVerdict for every rule, label count up to 8 and adjudication", async () => {
    const rows = await prisma().$queryRaw<
      {
        rule: AggregationRule;
        n: number;
        nValid: number;
        adj: boolean | null;
        valid: boolean | null;
        decidedBy: string | null;
      }[]
    >`
      SELECT rule, n, v AS "nValid", adj, verity_final_valid(rule, n, v, adj) AS valid, verity_decided_by(rule, n, v, adj) AS "decidedBy"
      FROM unnest(enum_range(NULL::"FinalRule")) AS rule, generate_series(0, 8) AS n,
           LATERAL generate_series(0, n) AS v, unnest(ARRAY[NULL, true, false]::boolean[]) AS adj`;
    expect(rows).toHaveLength(3 * 45 * 3);
    for (const row of rows)
      expect({ valid: row.valid, decidedBy: row.decidedBy }, JSON.stringify(row)).toEqual(
        finalVerdict({ rule: row.rule, labelCount: row.n, validCount: row.nValid, adjudicationValid: row.adj }),
      );
  });
});

describe("final labels of items with more labels than the campaign expects", () => {
  it("are still decided by finalLabel in the report (an overlap lowered after labelling)", async () => {
    const dataset = uniqueName("outgrown");
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl([makeRecord(`o_${dataset.replaceAll("-", "_")}`)])),
      skipInvalid: false,
      origin: "api",
    });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("outgrown"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "majority",
        leaseMinutes: 30,
      },
    });
    const item = await prisma().campaignItem.findFirstOrThrow({
      where: { campaignId: campaign.id },
      select: { id: true },
    });
    // Three labels at overlap 1: more than any item of the campaign was meant to get.
    for (const [index, valid] of [true, true, false].entries()) {
      await holdItem({ userId: annotators[index].id, itemId: item.id });
      await submitAnnotation({
        actor: annotators[index],
        itemId: item.id,
        input: { valid, categories: valid ? [] : ["other"], note: null, needsReview: false, activeMs: 1000 },
      });
    }
    const report = await getCampaignReport({ actor: admin, campaignId: campaign.id });
    expect(report.pooled).toMatchObject({ sampled: 1, labelled: 1, resolved: 1, valid: 1 });
  });
});
