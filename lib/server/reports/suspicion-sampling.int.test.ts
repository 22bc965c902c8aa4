// Random vs suspicion-ordered campaigns. A suspicion campaign takes, per language, the records with the
// highest suspicion score (lib/evidence/suspicion.ts), most suspicious first, so an annotator's first
// item is the most suspicious record; and it never changes the validity table: the dataset report
// (and its Dawid–Skene estimate) is identical before and after a suspicion campaign over the same
// records is labelled and adjudicated, says what it left out, and the suspicion campaign's own report
// gives counts without rates.
import { beforeAll, describe, expect, it } from "vitest";

import { type SuspicionFacts, suspicionScore } from "@/lib/evidence/suspicion";
import type { Actor } from "@/lib/server/auth/permissions";
import { plantEvidence } from "@/lib/testing/evidence";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { campaignReportResponseSchema, datasetReportResponseSchema } from "@/lib/validation/reports";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { extendCampaign } from "@/lib/server/campaigns/extend-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { getDatasetDawidSkene } from "@/lib/server/reports/dawid-skene";
import { getCampaignReport, getDatasetReport } from "@/lib/server/reports/reports";
import { adjudicateItem } from "@/lib/server/review/review";

let admin: Actor;
let annotator: Actor;
let dataset: string;
/** Records by id with their planted evidence and suspicion score. */
const planted = new Map<number, { language: string; facts: SuspicionFacts; score: number }>();

const RECORDS_PER_LANGUAGE = 12;

/** Evidence for the i-th record of a language: distinct scores, from none to flaky and unsolved with weak tests. */
function factsFor(index: number): SuspicionFacts {
  return {
    mutationScore: index % 3 === 0 ? null : (index * 7) / 100,
    flaky: index % 5 === 4 ? true : index % 5 === 0 ? null : false,
    solversTotal: index % 4 === 0 ? 0 : 3,
    solversSolved: index % 4 === 1 ? 0 : index % 4 === 2 ? 1 : 3,
    criticPass: index % 2 === 0,
    executableValid: index % 3 === 1 ? false : true,
  };
}

async function labelEverything(campaignId: string, valid: (recordId: number) => boolean) {
  for (;;) {
    const claim = await claimNextItem({ actor: annotator, campaignId });
    if (!claim) return;
    const recordId = (await prisma().campaignItem.findUniqueOrThrow({ where: { id: claim.itemId } })).recordId;
    const isValid = valid(recordId);
    await submitAnnotation({
      actor: annotator,
      itemId: claim.itemId,
      input: {
        valid: isValid,
        categories: isValid ? [] : ["wrong-expected-output"],
        note: null,
        needsReview: false,
        activeMs: 1000,
      },
    });
  }
}

const campaignInput = (sampling: "random" | "suspicion", perLanguage: number | null) => ({
  dataset,
  name: uniqueName(`samp-${sampling}`),
  perLanguage,
  sampling,
  overlap: 1,
  agreementFraction: 0,
  blind: false,
  finalRule: "consensus" as const,
  leaseMinutes: 30,
});

/** The report without the parts that describe the sampling itself: its figures. */
function figures(report: Awaited<ReturnType<typeof getDatasetReport>>) {
  const { sampling, leftOut, ...rest } = report;
  void sampling;
  void leftOut;
  return rest;
}

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  annotator = await makeUser("ANNOTATOR", ["python", "javascript"]);
  dataset = uniqueName("samp");
  const records = ["python", "javascript"].flatMap((language) =>
    Array.from({ length: RECORDS_PER_LANGUAGE }, (_, index) =>
      makeRecord(`samp_${language}_${index}`, { language, difficulty: index % 2 ? "easy" : "hard" }),
    ),
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
    select: { id: true, language: true },
  });
  const withFacts = rows.map((row, line) => ({ id: row.id, facts: factsFor(line % RECORDS_PER_LANGUAGE) }));
  await plantEvidence(withFacts);
  for (const [index, row] of rows.entries())
    planted.set(row.id, {
      language: row.language,
      facts: withFacts[index].facts,
      score: suspicionScore(withFacts[index].facts),
    });
}, 120_000);

describe("a suspicion-ordered campaign", () => {
  it("takes per language the most suspicious records, most suspicious first, and hands the first to the annotator", async () => {
    const campaign = await createCampaign({ actor: admin, input: campaignInput("suspicion", 5) });
    expect(campaign.sampling).toBe("suspicion");
    const items = await prisma().campaignItem.findMany({
      where: { campaignId: campaign.id },
      orderBy: { position: "asc" },
      select: { recordId: true, language: true },
    });
    const scores = items.map((item) => planted.get(item.recordId)!.score);
    // Most suspicious first: never a higher score after a lower one.
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const language of ["python", "javascript"]) {
      const chosen = items
        .filter((item) => item.language === language)
        .map((item) => planted.get(item.recordId)!.score);
      const all = [...planted.values()].filter((record) => record.language === language).map((record) => record.score);
      expect(chosen).toEqual([...all].sort((a, b) => b - a).slice(0, 5));
    }
    const first = await claimNextItem({ actor: annotator, campaignId: campaign.id });
    expect(planted.get(first!.recordId)!.score).toBe(Math.max(...[...planted.values()].map((record) => record.score)));
    // Extending it adds the next most suspicious records after the ones it holds.
    await extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: 6 } });
    const extended = await prisma().campaignItem.findMany({
      where: { campaignId: campaign.id },
      orderBy: { position: "asc" },
      select: { recordId: true },
    });
    expect(extended.slice(0, items.length).map((item) => item.recordId)).toEqual(items.map((item) => item.recordId));
    const added = extended.slice(items.length).map((item) => planted.get(item.recordId)!);
    expect(added).toHaveLength(2);
    for (const record of added) {
      const all = [...planted.values()].filter((each) => each.language === record.language).map((each) => each.score);
      expect(record.score).toBe([...all].sort((a, b) => b - a)[5]);
    }
  }, 120_000);

  it("a random campaign keeps today's sample: the same items as before sampling modes existed", async () => {
    const seed = "same-seed";
    const random = await createCampaign({ actor: admin, input: { ...campaignInput("random", 4), seed } });
    const unnamed = await createCampaign({
      actor: admin,
      input: { ...campaignInput("random", 4), seed, sampling: undefined },
    });
    expect(unnamed.sampling).toBe("random");
    const recordsOf = async (campaignId: string) =>
      (await prisma().campaignItem.findMany({ where: { campaignId }, select: { recordId: true } }))
        .map((item) => item.recordId)
        .sort((a, b) => a - b);
    expect(await recordsOf(random.id)).toEqual(await recordsOf(unnamed.id));
    // The stored sample is the md5(sample key, key) rank, not the suspicion score.
    const { sampleKey } = await prisma().campaign.findUniqueOrThrow({
      where: { id: random.id },
      select: { sampleKey: true },
    });
    const rows = await prisma().$queryRaw<{ id: number }[]>`
      SELECT id FROM (
        SELECT r.id, row_number() OVER (PARTITION BY r.language ORDER BY md5(${sampleKey} || ':sample:' || r.key)) AS rank
        FROM "Record" r JOIN "Dataset" d ON d.id = r."datasetId" WHERE d.name = ${dataset}) ranked
      WHERE rank <= 4 ORDER BY id`;
    expect(await recordsOf(random.id)).toEqual(rows.map((row) => row.id));
    await prisma().campaign.deleteMany({ where: { id: { in: [random.id, unnamed.id] } } });
  });
});

describe("the report counts random campaigns only", () => {
  it("is identical before and after a labelled, adjudicated suspicion campaign; says what it left out", async () => {
    // Remove the first test's suspicion campaign: the report is taken over random campaigns first.
    await prisma().campaign.deleteMany({ where: { dataset: { name: dataset }, sampling: "SUSPICION" } });
    const random = await createCampaign({ actor: admin, input: campaignInput("random", null) });
    await labelEverything(random.id, (recordId) => recordId % 3 !== 0);
    const before = await getDatasetReport({ actor: admin, datasetName: dataset });
    const dawidSkeneBefore = await getDatasetDawidSkene({ actor: admin, datasetName: dataset });
    expect(before.pooled.resolved).toBe(2 * RECORDS_PER_LANGUAGE);
    expect(before.leftOut).toEqual({ campaigns: [], items: 0, labelledItems: 0 });

    // The suspicion campaign calls every record invalid, and a reviewer's decision (the strongest
    // label across campaigns) confirms one: counted, it would move the validity table.
    const suspicion = await createCampaign({ actor: admin, input: campaignInput("suspicion", 4) });
    await labelEverything(suspicion.id, () => false);
    const decided = await prisma().campaignItem.findFirstOrThrow({
      where: { campaignId: suspicion.id },
      orderBy: { position: "asc" },
    });
    await adjudicateItem({
      actor: admin,
      itemId: decided.id,
      input: { valid: false, categories: ["wrong-expected-output"], reason: "The expected value is wrong." },
    });

    const after = await getDatasetReport({ actor: admin, datasetName: dataset });
    expect(figures(after)).toEqual(figures(before));
    expect(await getDatasetDawidSkene({ actor: admin, datasetName: dataset })).toEqual(dawidSkeneBefore);
    expect(after.leftOut).toEqual({
      campaigns: [{ id: suspicion.id, name: suspicion.name }],
      items: 8,
      labelledItems: 8,
    });
    expect(after.sampling.note).toMatch(/only randomly sampled campaigns' items/);
    expect(after.sampling.note).toMatch(/Left out: 1 suspicion-ordered campaign with 8 labelled items/);
    // The JSON the REST route sends is what the catalog promises.
    expect(datasetReportResponseSchema.safeParse(JSON.parse(JSON.stringify(after))).success).toBe(true);

    const own = await getCampaignReport({ actor: admin, campaignId: suspicion.id });
    expect(campaignReportResponseSchema.safeParse(JSON.parse(JSON.stringify(own))).success).toBe(true);
    expect(own.sampling.mode).toBe("suspicion");
    expect(own.pooled).toMatchObject({ resolved: 8, valid: 0, validity: null, ci: null, criticPass: null });
    expect(Object.values(own.byLanguage).every((row) => row.validity === null)).toBe(true);
    expect((await getCampaignReport({ actor: admin, campaignId: random.id })).pooled.validity).toBe(
      before.pooled.validity,
    );
  }, 240_000);
});
