// Which critic to trust: labels stored through the real submit path, the record files' critic
// ("imported") and two versions of a critic run against the fake endpoint; every figure is checked
// against the counts worked out by hand in the table below.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { SYSTEM_ACTOR, type Actor } from "@/lib/server/auth/permissions";
import { processCriticRun } from "./run";
import { saveCriticSchema } from "@/lib/validation/critics";
import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { criticAnswer, type FakeOpenAI, startFakeOpenAI } from "@/lib/testing/fake-openai";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { getDatasetCriticCalibration } from "./calibration";
import { getCriticRunProgress } from "./get-critic-run-progress";
import { listCriticRunResults } from "./list-critic-run-results";
import { listCriticRuns } from "./list-critic-runs";
import { listCritics } from "./list-critics";
import { openCriticRun } from "./open-critic-run";
import { saveCritic } from "./save-critic";
import { importRecords } from "@/lib/server/imports/imports";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { getDatasetReport } from "@/lib/server/reports/reports";

const SWALLOW = "Exception Swallowing";
const OTHER = "Other Issues";
// r | language | people (final)              | imported | v1                  | v2
// 0 | python   | valid                       | pass     | fail (swallowing)   | pass
// 1 | python   | invalid, exception-swallow. | fail     | fail (swallowing)   | fail (swallowing)
// 2 | python   | valid                       | pass     | fail (swallowing)   | pass
// 3 | python   | invalid, other              | pass     | pass                | fail (other)
// 4 | python   | valid                       | pass     | prose (unreadable)  | pass
// 5 | python   | invalid, exception-swallow. | pass     | pass                | fail (swallowing)
// 6 | cpp      | valid                       | pass     | pass                | pass
// 7 | cpp      | invalid, other              | pass     | pass                | fail (other)
const PEOPLE: (string | null)[] = [
  null,
  "exception-swallowing",
  null,
  "other",
  null,
  "exception-swallowing",
  null,
  "other",
];
const LANGUAGES = ["python", "python", "python", "python", "python", "python", "cpp", "cpp"];
const V1: ("pass" | "fail" | "prose")[] = ["fail", "fail", "fail", "pass", "prose", "pass", "pass", "pass"];

let admin: Actor;
let dataset: string;
let fake: FakeOpenAI;
let criticName: string;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  const annotator = await makeUser("ANNOTATOR", ["python", "cpp"]);
  dataset = uniqueName("calibration");
  const seed = dataset.replaceAll("-", "_");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(
      toJsonl(
        LANGUAGES.map((language, n) =>
          makeRecord(`${seed}_${n}`, {
            language,
            question: `case r${n}: write add_${seed}_${n}.`,
            critic: criticAnswer(n === 1 ? { pass: false, failedRules: [SWALLOW] } : { pass: true }),
          }),
        ),
      ),
    ),
    skipInvalid: false,
    origin: "api",
  });
  const campaign = await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("Calibration"),
      overlap: 1,
      agreementFraction: 0,
      blind: true,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  const items = await prisma().campaignItem.findMany({
    where: { campaignId: campaign.id },
    select: { id: true, record: { select: { line: true } } },
  });
  for (const item of items) {
    const category = PEOPLE[item.record.line - 1];
    await holdItem({ userId: annotator.id, itemId: item.id });
    await submitAnnotation({
      actor: annotator,
      itemId: item.id,
      input: {
        valid: category === null,
        categories: category ? [category] : [],
        note: null,
        needsReview: false,
        activeMs: 1000,
      },
    });
  }

  fake = await startFakeOpenAI(() => ({}));
  criticName = uniqueName("critic");
  const define = (model: string) =>
    saveCritic({
      actor: SYSTEM_ACTOR.cli,
      input: saveCriticSchema.parse({ name: criticName, baseUrl: fake.baseUrl, model }),
    });
  const runOnce = async () => {
    const run = await openCriticRun({ actor: SYSTEM_ACTOR.cli, criticName, datasetName: dataset });
    expect(await processCriticRun({ runId: run.runId })).toBe("finished");
  };
  const rOf = (prompt: string) => Number(/case r(\d)/.exec(prompt)![1]);
  await define("v1-model");
  fake.setScript(({ prompt }) => {
    const answer = V1[rOf(prompt)];
    if (answer === "prose") return { content: "Looks fine, probably." };
    return { content: criticAnswer(answer === "pass" ? { pass: true } : { pass: false, failedRules: [SWALLOW] }) };
  });
  await runOnce();
  await define("v2-model");
  fake.setScript(({ prompt }) => {
    const category = PEOPLE[rOf(prompt)];
    if (category === null) return { content: criticAnswer({ pass: true, confidence: 0.9 }) };
    return {
      content: criticAnswer({ pass: false, failedRules: [category === "other" ? OTHER : SWALLOW], confidence: 0.9 }),
    };
  });
  await runOnce();
});

afterAll(async () => {
  await fake?.close();
});

describe("getDatasetCriticCalibration", () => {
  it("ranks the versions against people's final labels on 'invalid', with n and the unreadable left out", async () => {
    const calibration = await getDatasetCriticCalibration({ actor: admin, datasetName: dataset });
    expect(calibration.items).toBe(8);
    expect(calibration.provenance).toEqual({ blind: 8, open: 0 });
    expect(calibration.versions.map((v) => `${v.critic === criticName ? "run" : v.critic} v${v.version}`)).toEqual([
      "run v2",
      "imported v1",
      "run v1",
    ]);
    const [v2, imported, v1] = calibration.versions;
    expect(v2.invalid.counts).toEqual({ truePositives: 4, falsePositives: 0, falseNegatives: 0, trueNegatives: 4 });
    expect(v2.invalid).toMatchObject({ n: 8, kappa: 1, f1: 1, accuracy: { value: 1 } });
    expect(imported.invalid.counts).toEqual({
      truePositives: 1,
      falsePositives: 0,
      falseNegatives: 3,
      trueNegatives: 4,
    });
    // p_o = 5/8; critic invalid 1/8, people 4/8: p_e = 1/8·4/8 + 7/8·4/8 = 1/2; κ = (5/8 − 1/2)/(1/2) = 1/4.
    expect(imported.invalid.kappa).toBeCloseTo(0.25, 12);
    expect(imported.invalid.recall.value).toBe(0.25);
    // v1 on the 7 replies that parsed: r1 TP; r0, r2 FP; r3, r5, r7 FN; r6 TN.
    expect(v1.unreadable).toBe(1);
    expect(v1.invalid.counts).toEqual({ truePositives: 1, falsePositives: 2, falseNegatives: 3, trueNegatives: 1 });
    expect(v1.invalid.n).toBe(7);
    expect(v1.invalid.provenance).toEqual({ blind: 7, open: 0 });
    expect(v1.invalid.precision.value).toBeCloseTo(1 / 3, 12);
    expect(v1.blindOnly.counts).toEqual(v1.invalid.counts);
  });

  it("breaks each version down by language and by rule, and names the rule wrong most often per language", async () => {
    const calibration = await getDatasetCriticCalibration({ actor: admin, datasetName: dataset });
    const v1 = calibration.versions.find((v) => v.critic === criticName && v.version === 1)!;
    expect(v1.byLanguage.python.counts).toEqual({
      truePositives: 1,
      falsePositives: 2,
      falseNegatives: 2,
      trueNegatives: 0,
    });
    expect(v1.byLanguage.cpp.counts).toEqual({
      truePositives: 0,
      falsePositives: 0,
      falseNegatives: 1,
      trueNegatives: 1,
    });
    // Exception Swallowing: flagged r0, r1, r2; people chose its category on r1, r5.
    const swallowing = v1.byRule.find((rule) => rule.rule === SWALLOW)!;
    expect(swallowing.categories).toEqual(["exception-swallowing"]);
    expect(swallowing.counts).toEqual({ truePositives: 1, falsePositives: 2, falseNegatives: 1, trueNegatives: 3 });
    expect(swallowing.byLanguage.python.counts).toEqual({
      truePositives: 1,
      falsePositives: 2,
      falseNegatives: 1,
      trueNegatives: 1,
    });
    // Other Issues was never flagged by v1; people chose "other" on r3 and r7.
    expect(v1.byRule.find((rule) => rule.rule === OTHER)!.counts).toMatchObject({
      truePositives: 0,
      falseNegatives: 2,
    });
    expect(v1.mostWrongRule).toEqual({
      python: { rule: SWALLOW, wrong: 3, n: 5 },
      cpp: { rule: OTHER, wrong: 1, n: 2 },
    });
    const v2 = calibration.versions[0];
    expect(v2.mostWrongRule).toEqual({ python: null, cpp: null });
  });

  it("draws the reliability curve where a version states a confidence", async () => {
    const calibration = await getDatasetCriticCalibration({ actor: admin, datasetName: dataset });
    const [v2, imported] = calibration.versions;
    // Eight verdicts at 0.9, all right: one point (bin 9), ECE = |1 − 0.9|.
    expect(v2.reliability.n).toBe(8);
    expect(v2.reliability.points).toHaveLength(1);
    expect(v2.reliability.ece).toBeCloseTo(0.1, 12);
    expect(imported.reliability).toEqual({ points: [], ece: null, n: 0 });
  });

  it("leaves out a suspicion-ordered campaign's labels, however strong", async () => {
    const before = await getDatasetCriticCalibration({ actor: admin, datasetName: dataset });
    // Two annotators agreeing that every record is valid: a stronger label than the random
    // campaign's single one, so it would win each record if suspicion campaigns counted.
    const suspicious = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("Suspicion"),
        overlap: 2,
        agreementFraction: 0,
        blind: true,
        finalRule: "consensus",
        leaseMinutes: 30,
        sampling: "suspicion",
      },
    });
    const items = await prisma().campaignItem.findMany({ where: { campaignId: suspicious.id }, select: { id: true } });
    expect(items.length).toBeGreaterThan(0);
    for (const person of [
      await makeUser("ANNOTATOR", ["python", "cpp"]),
      await makeUser("ANNOTATOR", ["python", "cpp"]),
    ])
      for (const item of items) {
        await holdItem({ userId: person.id, itemId: item.id });
        await submitAnnotation({
          actor: person,
          itemId: item.id,
          input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
        });
      }
    expect(await getDatasetCriticCalibration({ actor: admin, datasetName: dataset })).toEqual(before);
  });

  it("leaves the validity report as it was: critic runs do not touch it", async () => {
    const report = await getDatasetReport({ actor: admin, datasetName: dataset });
    // The record files' critic passed 5 of the 6 Python records; the runs' verdicts are not the report's.
    expect(report.byLanguage.python).toMatchObject({ criticN: 6, resolved: 6, valid: 3 });
    expect(report.byLanguage.python.criticPass).toBeCloseTo(5 / 6, 12);
    expect(report.byLanguage.cpp).toMatchObject({ criticN: 2, criticPass: 1 });
  });
});

describe("who reads critic runs", () => {
  it("refuses annotators every run, reply and figure, and lets reviewers read them", async () => {
    const annotator = await makeUser("ANNOTATOR", ["python", "cpp"]);
    const reviewer = await makeUser("REVIEWER");
    const { runs } = await listCriticRuns({ actor: admin });
    const runId = runs[0].runId;
    for (const read of [
      () => getDatasetCriticCalibration({ actor: annotator, datasetName: dataset }),
      () => listCritics({ actor: annotator }),
      () => listCriticRuns({ actor: annotator }),
      () => getCriticRunProgress({ actor: annotator, runId }),
      () => listCriticRunResults({ actor: annotator, runId }),
    ])
      await expect(read()).rejects.toMatchObject({ code: "FORBIDDEN" });
    const { results } = await listCriticRunResults({ actor: reviewer, runId });
    expect(results.length).toBeGreaterThan(0);
    // Each reply names its record by its statement's title, not only by an id.
    for (const result of results)
      expect(result).toMatchObject({ title: expect.stringMatching(/^case r\d+: write add_/) });
    await expect(
      saveCritic({
        actor: reviewer,
        input: saveCriticSchema.parse({ name: uniqueName("x"), baseUrl: fake.baseUrl, model: "m" }),
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
