// The report's every cell against an independent recomputation in the test: labels are made here,
// the expected numbers are counted here from those labels, and the SQL report must match them.
import { beforeAll, describe, expect, it } from "vitest";

import { cohensKappa, finalLabel, krippendorffAlphaNominal, wilsonInterval } from "@/lib/metrics";
import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { exportCampaign } from "@/lib/server/reports/exports";
import { importRecords } from "@/lib/server/imports/imports";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { adjudicateItem } from "@/lib/server/review/review";
import { getCampaignReport } from "@/lib/server/reports/reports";

type Plan = {
  language: string;
  difficulty: string;
  critic: boolean | null;
  executable: boolean | null;
  labels: { valid: boolean; categories: string[] }[];
  adjudication?: { valid: boolean; categories: string[] };
};

// Three annotators (overlap 3); some items get fewer labels (still in progress).
const PLAN: Plan[] = [
  {
    language: "python",
    difficulty: "easy",
    critic: true,
    executable: true,
    labels: [
      { valid: true, categories: [] },
      { valid: true, categories: [] },
      { valid: true, categories: [] },
    ],
  },
  {
    language: "python",
    difficulty: "easy",
    critic: false,
    executable: true,
    labels: [
      { valid: false, categories: ["name-mismatch"] },
      { valid: false, categories: ["name-mismatch", "weak-coverage"] },
      { valid: false, categories: ["precision"] },
    ],
  },
  {
    language: "python",
    difficulty: "medium",
    critic: true,
    executable: false,
    labels: [
      { valid: true, categories: [] },
      { valid: false, categories: ["solution-wrong"] },
      { valid: true, categories: [] },
    ],
  },
  {
    language: "python",
    difficulty: "hard",
    critic: null,
    executable: null,
    labels: [
      { valid: true, categories: [] },
      { valid: false, categories: ["other"] },
      { valid: true, categories: [] },
    ],
    adjudication: { valid: false, categories: ["statement-incomplete"] },
  },
  { language: "python", difficulty: "hard", critic: true, executable: true, labels: [] },
  {
    language: "cpp",
    difficulty: "easy",
    critic: true,
    executable: true,
    labels: [
      { valid: true, categories: [] },
      { valid: true, categories: [] },
    ],
  },
  {
    language: "cpp",
    difficulty: "medium",
    critic: false,
    executable: false,
    labels: [
      { valid: false, categories: ["wrong-expected-output"] },
      { valid: false, categories: ["wrong-expected-output"] },
      { valid: false, categories: ["statement-incomplete"] },
    ],
  },
  {
    language: "cpp",
    difficulty: "medium",
    critic: true,
    executable: true,
    labels: [
      { valid: true, categories: [] },
      { valid: true, categories: [] },
      { valid: false, categories: ["precision"] },
    ],
  },
];

let admin: Actor;
let campaignId: string;
const INVALIDATING = new Set([
  "name-mismatch",
  "precision",
  "solution-wrong",
  "other",
  "statement-incomplete",
  "wrong-expected-output",
]);

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  const reviewer = await makeUser("REVIEWER");
  const annotators = [
    await makeUser("ANNOTATOR", ["python", "cpp"]),
    await makeUser("ANNOTATOR", ["python", "cpp"]),
    await makeUser("ANNOTATOR", ["python", "cpp"]),
  ];
  const dataset = uniqueName("report");
  const records = PLAN.map((plan, index) =>
    makeRecord(`r${index}_${dataset.replaceAll("-", "_")}`, {
      language: plan.language,
      difficulty: plan.difficulty,
      index,
      ...(plan.critic === null
        ? {}
        : {
            critic_result: {
              summary: { overall_pass: plan.critic, failed_rules: plan.critic ? [] : ["Other Issues"], key_points: [] },
            },
          }),
    }),
  );
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(records)),
    skipInvalid: false,
    origin: "api",
  });
  const campaign = await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("report"),
      overlap: 3,
      agreementFraction: 0,
      blind: false,
      finalRule: "majority",
      leaseMinutes: 30,
    },
  });
  campaignId = campaign.id;
  const items = await prisma().campaignItem.findMany({
    where: { campaignId },
    select: { id: true, record: { select: { id: true, extra: true } } },
  });
  for (const item of items) {
    const plan = PLAN[(item.record.extra as { index: number }).index];
    await prisma().record.update({ where: { id: item.record.id }, data: { executableValid: plan.executable } });
    for (const [index, label] of plan.labels.entries()) {
      await holdItem({ userId: annotators[index].id, itemId: item.id });
      await submitAnnotation({
        actor: annotators[index],
        itemId: item.id,
        input: { ...label, note: label.valid ? null : "see categories", needsReview: false, activeMs: 20_000 },
      });
    }
    if (plan.adjudication)
      await adjudicateItem({
        actor: reviewer,
        itemId: item.id,
        input: { ...plan.adjudication, reason: "decided by review" },
      });
  }
});

function expectedRow(plans: Plan[]) {
  const finals = plans.map((plan) =>
    finalLabel({
      rule: "majority",
      labels: plan.labels,
      adjudication: plan.adjudication ?? null,
      invalidatingKeys: INVALIDATING,
    }),
  );
  const resolved = finals.filter((final) => final.valid !== null).length;
  const valid = finals.filter((final) => final.valid === true).length;
  const withCritic = plans.filter((plan) => plan.critic !== null);
  const withExec = plans.filter((plan) => plan.executable !== null);
  const criticPairs = plans.flatMap((plan, index) =>
    finals[index].valid !== null && plan.critic !== null
      ? [[finals[index].valid, plan.critic] as [boolean, boolean]]
      : [],
  );
  const categoryCounts: Record<string, number> = {};
  finals.forEach((final) => {
    if (final.valid === false) for (const key of final.categories) categoryCounts[key] = (categoryCounts[key] ?? 0) + 1;
  });
  return {
    sampled: plans.length,
    labelled: plans.filter((plan) => plan.labels.length > 0).length,
    resolved,
    valid,
    validity: resolved ? valid / resolved : null,
    ci: wilsonInterval(valid, resolved),
    criticPass: withCritic.length ? withCritic.filter((plan) => plan.critic).length / withCritic.length : null,
    executableValid: withExec.length ? withExec.filter((plan) => plan.executable).length / withExec.length : null,
    humanCriticKappa: cohensKappa(criticPairs),
    alpha: krippendorffAlphaNominal(
      plans.filter((plan) => plan.labels.length >= 2).map((plan) => plan.labels.map((label) => label.valid)),
    ),
    categoryCounts,
  };
}

function expectRowToMatch(
  actual: Awaited<ReturnType<typeof getCampaignReport>>["pooled"],
  expected: ReturnType<typeof expectedRow>,
) {
  expect(actual.sampled).toBe(expected.sampled);
  expect(actual.labelled).toBe(expected.labelled);
  expect(actual.resolved).toBe(expected.resolved);
  expect(actual.valid).toBe(expected.valid);
  for (const key of ["validity", "criticPass", "executableValid", "humanCriticKappa", "alpha"] as const) {
    if (expected[key] === null) expect(actual[key], key).toBeNull();
    else expect(actual[key], key).toBeCloseTo(expected[key]!, 10);
  }
  if (expected.ci === null) expect(actual.ci).toBeNull();
  else {
    expect(actual.ci![0]).toBeCloseTo(expected.ci[0], 10);
    expect(actual.ci![1]).toBeCloseTo(expected.ci[1], 10);
  }
  const topExpected = Object.entries(expected.categoryCounts)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, 3)
    .map(([key, count]) => ({ key, count }));
  expect(actual.topCategories).toEqual(topExpected);
}

describe("campaign report", () => {
  it("matches an independent recomputation in every cell, per language and pooled", async () => {
    const report = await getCampaignReport({ actor: admin, campaignId });
    expect(Object.keys(report.byLanguage).sort()).toEqual(["cpp", "python"]);
    for (const language of ["python", "cpp"])
      expectRowToMatch(report.byLanguage[language], expectedRow(PLAN.filter((plan) => plan.language === language)));
    expectRowToMatch(report.pooled, expectedRow(PLAN));
    const perLanguage = ["cpp", "python"].map((language) =>
      expectedRow(PLAN.filter((plan) => plan.language === language)),
    );
    expect(report.macro.validity).toBeCloseTo((perLanguage[0].validity! + perLanguage[1].validity!) / 2, 10);
    expect(report.macro.ci).toBeNull();
  });

  it("breaks down by difficulty and category", async () => {
    const report = await getCampaignReport({ actor: admin, campaignId });
    for (const difficulty of ["easy", "medium", "hard"]) {
      const expected = expectedRow(PLAN.filter((plan) => plan.difficulty === difficulty));
      expect(report.byDifficulty[difficulty]).toMatchObject({
        sampled: expected.sampled,
        resolved: expected.resolved,
        valid: expected.valid,
      });
    }
    const expected = expectedRow(PLAN);
    const invalid = expected.resolved - expected.valid;
    for (const category of report.byCategory) {
      expect(category.count, category.key).toBe(expected.categoryCounts[category.key] ?? 0);
      expect(category.shareOfInvalid).toBeCloseTo((expected.categoryCounts[category.key] ?? 0) / invalid, 10);
    }
  });

  it("exports the final-Valid records in the input format with verification fields, and every item's labels", async () => {
    let verified = "";
    for await (const chunk of exportCampaign({ actor: admin, campaignId, what: "verified", format: "jsonl" }))
      verified += chunk;
    const lines = verified
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as Record<string, unknown> & { verification: { final_label: string }; index: number },
      );
    const expectedValid = PLAN.filter(
      (plan) =>
        finalLabel({
          rule: "majority",
          labels: plan.labels,
          adjudication: plan.adjudication ?? null,
          invalidatingKeys: INVALIDATING,
        }).valid === true,
    ).length;
    expect(lines).toHaveLength(expectedValid);
    for (const line of lines) {
      expect(line).toHaveProperty("canonical_solution");
      expect(line).toHaveProperty("index");
      expect(line.verification.final_label).toBe("valid");
    }
    let labels = "";
    for await (const chunk of exportCampaign({ actor: admin, campaignId, what: "labels", format: "jsonl" }))
      labels += chunk;
    expect(labels.trim().split("\n")).toHaveLength(PLAN.length);
  });
});

describe("dataset report", () => {
  it("counts each record once across campaigns, with its latest resolved label", async () => {
    const dataset = uniqueName("dsreport");
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl([0, 1, 2].map((i) => makeRecord(`d${i}_${dataset.replaceAll("-", "_")}`)))),
      skipInvalid: false,
      origin: "api",
    });
    const label = async (campaignId: string, valids: boolean[]) => {
      const items = await prisma().campaignItem.findMany({
        where: { campaignId },
        orderBy: { recordId: "asc" },
        select: { id: true },
      });
      for (const [index, valid] of valids.entries()) {
        await holdItem({ userId: annotator.id, itemId: items[index].id });
        await submitAnnotation({
          actor: annotator,
          itemId: items[index].id,
          input: {
            valid,
            categories: valid ? [] : ["other"],
            note: valid ? null : "no",
            needsReview: false,
            activeMs: 1000,
          },
        });
      }
    };
    const first = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("first"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    await label(first.id, [false, false, true]);
    const second = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("second"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    // The second campaign relabels only the first record, as valid.
    await label(second.id, [true]);
    const { getDatasetReport } = await import("@/lib/server/reports/reports");
    const report = await getDatasetReport({ actor: admin, datasetName: dataset });
    expect(report.campaigns.map((campaign) => campaign.id)).toEqual([first.id, second.id]);
    expect(report.pooled).toMatchObject({ sampled: 3, resolved: 3, valid: 2 });
    expect(report.pooled.validity).toBeCloseTo(2 / 3, 10);
  });

  it("lets stronger evidence win across campaigns: adjudication, then more agreeing annotators, then the latest", async () => {
    const dataset = uniqueName("dsstrength");
    const languages = ["python", "cpp", "javascript"];
    const annotators = [await makeUser("ANNOTATOR", languages), await makeUser("ANNOTATOR", languages)];
    const reviewer = await makeUser("REVIEWER");
    // One record per language, so each language's validity shows which label its record kept.
    const records = languages.map((language, index) =>
      makeRecord(`s${index}_${dataset.replaceAll("-", "_")}`, { language }),
    );
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl(records)),
      skipInvalid: false,
      origin: "api",
    });
    const label = async (campaignId: string, language: string, valids: boolean[], adjudication?: boolean) => {
      const item = await prisma().campaignItem.findFirstOrThrow({
        where: { campaignId, language },
        select: { id: true },
      });
      for (const [index, valid] of valids.entries()) {
        await holdItem({ userId: annotators[index].id, itemId: item.id });
        await submitAnnotation({
          actor: annotators[index],
          itemId: item.id,
          input: {
            valid,
            categories: valid ? [] : ["other"],
            note: valid ? null : "no",
            needsReview: false,
            activeMs: 1000,
          },
        });
      }
      if (adjudication !== undefined)
        await adjudicateItem({
          actor: reviewer,
          itemId: item.id,
          input: { valid: adjudication, categories: adjudication ? [] : ["other"], reason: "decided by review" },
        });
    };
    const campaign = async (prefix: string) =>
      createCampaign({
        actor: admin,
        input: {
          dataset,
          name: uniqueName(prefix),
          overlap: 2,
          agreementFraction: 0,
          blind: false,
          finalRule: "consensus",
          leaseMinutes: 30,
        },
      });
    const first = await campaign("first");
    await label(first.id, "python", [false, false]); // two annotators agree: invalid
    await label(first.id, "cpp", [true, false], true); // adjudicated valid
    await label(first.id, "javascript", [false, false]);
    const second = await campaign("second");
    await label(second.id, "python", [true]); // one label, later: must not overturn the two
    await label(second.id, "cpp", [false, false]); // agreement, later: must not overturn the adjudication
    await label(second.id, "javascript", [true, true]); // as strong, later: wins
    const { getDatasetReport } = await import("@/lib/server/reports/reports");
    const report = await getDatasetReport({ actor: admin, datasetName: dataset });
    expect(report.byLanguage.python).toMatchObject({ resolved: 1, valid: 0 });
    expect(report.byLanguage.cpp).toMatchObject({ resolved: 1, valid: 1 });
    expect(report.byLanguage.javascript).toMatchObject({ resolved: 1, valid: 1 });
  });
});
