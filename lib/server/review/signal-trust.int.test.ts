// Signals against people: each signal's table (critic overall and per rule, execution, flaky, weak
// tests, unsolved) computed by the SQL aggregate is held to a recount done here by hand from the
// planted facts and the labels — plain loops, not the code under test.
import { describe, expect, it } from "vitest";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { getCampaignAgreement } from "@/lib/server/review/agreement";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

type Facts = {
  language: "python" | "ruby";
  criticPass: boolean;
  rules: string[];
  exec: boolean | null;
  flaky: boolean | null;
  score: number | null;
  solved: boolean[];
  /** The annotator's label, which is the final label (overlap 1). */
  valid: boolean;
};

// Twelve records with every combination the signals need, in two languages.
const FACTS: Facts[] = [
  {
    language: "python",
    criticPass: false,
    rules: ["Other Issues"],
    exec: false,
    flaky: true,
    score: 0.2,
    solved: [false, false],
    valid: false,
  },
  {
    language: "python",
    criticPass: false,
    rules: ["Naming Inconsistency"],
    exec: true,
    flaky: false,
    score: 0.9,
    solved: [true],
    valid: false,
  },
  {
    language: "python",
    criticPass: true,
    rules: [],
    exec: true,
    flaky: false,
    score: 0.4,
    solved: [true, false],
    valid: true,
  },
  {
    language: "python",
    criticPass: false,
    rules: ["Other Issues"],
    exec: true,
    flaky: null,
    score: null,
    solved: [],
    valid: true,
  },
  {
    language: "python",
    criticPass: true,
    rules: [],
    exec: false,
    flaky: true,
    score: 1,
    solved: [false],
    valid: false,
  },
  {
    language: "python",
    criticPass: true,
    rules: [],
    exec: null,
    flaky: false,
    score: 0.5,
    solved: [true],
    valid: true,
  },
  {
    language: "ruby",
    criticPass: false,
    rules: ["Other Issues", "Naming Inconsistency"],
    exec: false,
    flaky: false,
    score: 0.1,
    solved: [false],
    valid: false,
  },
  {
    language: "ruby",
    criticPass: true,
    rules: [],
    exec: true,
    flaky: false,
    score: 0.8,
    solved: [true, true],
    valid: true,
  },
  { language: "ruby", criticPass: true, rules: [], exec: true, flaky: true, score: 0.3, solved: [], valid: true },
  {
    language: "ruby",
    criticPass: false,
    rules: ["Naming Inconsistency"],
    exec: true,
    flaky: false,
    score: null,
    solved: [false, false],
    valid: false,
  },
  { language: "ruby", criticPass: true, rules: [], exec: true, flaky: null, score: 0.7, solved: [true], valid: false },
  { language: "ruby", criticPass: true, rules: [], exec: true, flaky: false, score: 0.95, solved: [true], valid: true },
];

/** The signal's verdict on a record by hand: true = "invalid", null = no verdict. */
function flagOf(signal: string, facts: Facts): boolean | null {
  if (signal === "critic") return !facts.criticPass;
  if (signal === "execution") return facts.exec === null ? null : !facts.exec;
  if (signal === "flaky") return facts.flaky;
  if (signal === "weak-tests") return facts.score === null ? null : facts.score < 0.5;
  if (signal === "unsolved") return facts.solved.length === 0 ? null : !facts.solved.some(Boolean);
  const rule = signal.slice("rule:".length);
  return facts.rules.some((failed) => failed.toLowerCase() === rule);
}

function handCount(signal: string, facts: Facts[]) {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  let trueNegatives = 0;
  for (const item of facts) {
    const flagged = flagOf(signal, item);
    if (flagged === null) continue;
    if (flagged && !item.valid) truePositives++;
    else if (flagged) falsePositives++;
    else if (!item.valid) falseNegatives++;
    else trueNegatives++;
  }
  const n = truePositives + falsePositives + falseNegatives + trueNegatives;
  // Cohen's κ from its definition: (observed − chance) / (1 − chance).
  const observed = (truePositives + trueNegatives) / n;
  const signalInvalid = (truePositives + falsePositives) / n;
  const peopleInvalid = (truePositives + falseNegatives) / n;
  const chance = signalInvalid * peopleInvalid + (1 - signalInvalid) * (1 - peopleInvalid);
  return {
    truePositives,
    falsePositives,
    falseNegatives,
    trueNegatives,
    n,
    precision: truePositives + falsePositives === 0 ? null : truePositives / (truePositives + falsePositives),
    recall: truePositives + falseNegatives === 0 ? null : truePositives / (truePositives + falseNegatives),
    kappa: chance === 1 ? null : (observed - chance) / (1 - chance),
  };
}

describe("signal trust against final labels", () => {
  it("matches a hand count for every signal, overall and per language", async () => {
    const admin = await makeUser("ADMIN");
    const dataset = uniqueName("trust");
    const records = FACTS.map((facts, index) =>
      makeRecord(`t${index}_${dataset.replaceAll("-", "_")}`, {
        language: facts.language,
        critic_result: { summary: { overall_pass: facts.criticPass, failed_rules: facts.rules, key_points: [] } },
      }),
    );
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl(records)),
      skipInvalid: false,
      origin: "api",
    });
    const rows = await prisma().record.findMany({
      where: { dataset: { name: dataset } },
      orderBy: { line: "asc" },
      select: { id: true },
    });
    for (const [index, facts] of FACTS.entries()) {
      const recordId = rows[index].id;
      await prisma().record.update({
        where: { id: recordId },
        data: { executableValid: facts.exec, flaky: facts.flaky },
      });
      if (facts.score !== null)
        await prisma().mutationAnalysis.create({
          data: {
            recordId,
            requested: 8,
            generated: 8,
            viable: 8,
            killed: 0,
            demoKilled: 0,
            fullKilled: 0,
            stillborn: 0,
            score: facts.score,
          },
        });
      for (const [model, passed] of facts.solved.entries())
        await prisma().solution.create({
          data: { recordId, model: `m${model}`, code: "x", passed, ranAt: new Date() },
        });
    }
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const annotator = await makeUser("ANNOTATOR", ["python", "ruby"]);
    const byRecord = new Map(rows.map((row, index) => [row.id, FACTS[index]]));
    for (;;) {
      const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
      if (!claim) break;
      const item = await prisma().campaignItem.findUniqueOrThrow({
        where: { id: claim.itemId },
        select: { recordId: true },
      });
      await submitAnnotation({
        actor: annotator,
        itemId: claim.itemId,
        input: {
          valid: byRecord.get(item.recordId)!.valid,
          categories: [],
          note: null,
          needsReview: false,
          activeMs: 4000,
        },
      });
    }

    const table = (await getCampaignAgreement({ actor: admin, campaignId: campaign.id })).signals;
    const signals = [
      "critic",
      "execution",
      "flaky",
      "weak-tests",
      "unsolved",
      "rule:naming inconsistency",
      "rule:other issues",
    ];
    expect(table.map((row) => row.signal)).toEqual(signals);
    for (const row of table) {
      const expected = handCount(row.signal, FACTS);
      expect(row, row.signal).toMatchObject({
        truePositives: expected.truePositives,
        falsePositives: expected.falsePositives,
        falseNegatives: expected.falseNegatives,
        trueNegatives: expected.trueNegatives,
        n: expected.n,
      });
      for (const figure of ["precision", "recall", "kappa"] as const) {
        if (expected[figure] === null) expect(row[figure], `${row.signal} ${figure}`).toBeNull();
        else expect(row[figure], `${row.signal} ${figure}`).toBeCloseTo(expected[figure]!, 12);
      }
      for (const language of ["python", "ruby"] as const) {
        const inLanguage = handCount(
          row.signal,
          FACTS.filter((facts) => facts.language === language),
        );
        if (inLanguage.n === 0) expect(row.byLanguage[language]).toBeUndefined();
        else
          expect(row.byLanguage[language], `${row.signal} ${language}`).toMatchObject({
            n: inLanguage.n,
            truePositives: inLanguage.truePositives,
            falsePositives: inLanguage.falsePositives,
          });
      }
    }
    // The critic flags 5 records, 4 of them invalid: precision 4/5 with a Wilson interval around it.
    const critic = table[0];
    expect(critic).toMatchObject({ flagged: 5, truePositives: 4 });
    expect(critic.precisionInterval![0]).toBeLessThan(0.8);
    expect(critic.precisionInterval![1]).toBeGreaterThan(0.8);
  });
});
