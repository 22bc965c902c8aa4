// Property: every reader of final labels agrees with `finalLabel` (lib/metrics/final-label.ts). Random
// campaigns (each rule, random labels with categories, revisions, adjudications; two campaigns over one
// dataset for the cross-campaign rule) are written through the real data functions, then the report,
// the dataset report, the exports, the review queues, the agreement figures and the item counters are
// compared with what the pure definition says about the labels made here.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import {
  type AggregationRule,
  type AnnotatorLabel,
  type FinalLabel,
  finalLabel,
  strongestEvidence,
} from "@/lib/metrics";
import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { getCampaignAgreement } from "./agreement";
import { createCampaign } from "./campaigns";
import { prisma } from "./client";
import { exportCampaign } from "./exports";
import { importRecords } from "./imports";
import { submitAnnotation } from "./queue";
import { getCampaignReport, getDatasetReport } from "./reports";
import { adjudicateItem, computeOutcomes, listReviewQueue } from "./review";

const INVALIDATING = new Set(
  DEFAULT_CATEGORIES.filter((category) => category.invalidating).map((category) => category.key),
);
const LANGUAGES = ["python", "cpp"];
const DIFFICULTIES = ["easy", "hard"];

const label = fc.record({ valid: fc.boolean(), categories: fc.subarray(["precision", "weak-coverage", "other"]) });
// Up to three annotators; the first may revise their label; a reviewer may decide.
const itemPlan = fc.record({
  labels: fc.array(label, { maxLength: 3 }),
  revision: fc.option(label, { nil: undefined }),
  adjudication: fc.option(label, { nil: undefined }),
});
const scenario = fc
  .record({
    records: fc.array(
      fc.record({ language: fc.constantFrom(...LANGUAGES), difficulty: fc.constantFrom(...DIFFICULTIES) }),
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
  labels: (AnnotatorLabel & { userId: string })[];
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
    source: chunks(toJsonl(records.map((record, index) => makeRecord(`f${index}_${tag}`, { ...record, index })))),
    skipInvalid: false,
    origin: "api",
  });
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
          input: { ...planned, note: null, needsReview: false, activeMs: 1000 },
        });
      }
      if (itemPlan.revision && labels.length > 0) {
        await submitAnnotation({
          actor: annotators[0],
          itemId,
          input: { ...itemPlan.revision, note: "revised", needsReview: false, activeMs: 1000 },
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
      written.push({ campaignId: campaign.id, recordIndex, itemId, labels, final });
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

describe("final labels", () => {
  it("agree with finalLabel in every reader, under every rule", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (plan) => {
        const { dataset, expected, keyOf } = await writeScenario(plan);
        for (const items of expected) {
          const campaignId = items[0].campaignId;
          const finalOf = new Map(items.map((item) => [item.itemId, item.final]));

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

          // Review queues and agreement read the outcomes of labelled items.
          const { outcomes } = await computeOutcomes(campaignId);
          expect(Object.fromEntries(outcomes.map((outcome) => [outcome.itemId, outcome.final]))).toEqual(
            Object.fromEntries(items.filter((item) => item.labels.length > 0).map((item) => [item.itemId, item.final])),
          );
          const queue = await listReviewQueue({ actor: reviewer, campaignId, filters: {} });
          for (const row of queue.items) expect(row.final).toEqual(finalOf.get(row.itemId));
          const agreement = await getCampaignAgreement({ actor: admin, campaignId });
          for (const stats of agreement.annotators) {
            const resolved = items.flatMap((item) =>
              item.labels
                .filter((l) => l.userId === stats.userId && item.final.valid !== null && item.labels.length > 0)
                .map((l) => l.valid === item.final.valid),
            );
            expect(stats.agreementWithFinal).toBe(
              resolved.length ? resolved.filter(Boolean).length / resolved.length : null,
            );
          }
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
