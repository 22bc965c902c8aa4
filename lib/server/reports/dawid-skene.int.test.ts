// The Dawid–Skene section of a dataset's report: labels stored through the real submit path are
// gathered by SQL and must give exactly what the pure estimator gives on the same labels written
// down by hand here; the rule-based report does not move.
import { beforeAll, describe, expect, it } from "vitest";

import { fitDawidSkene, validityWithInterval } from "@/lib/metrics/dawid-skene";
import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { getDatasetDawidSkene } from "@/lib/server/reports/dawid-skene";
import { importRecords } from "@/lib/server/imports/imports";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { getDatasetReport } from "@/lib/server/reports/reports";

// Who said what: records 0–5 are Python, 6–7 C++. Annotator 2 disagrees often; record 1 has a gold answer (invalid).
const VERDICTS: ("valid" | "invalid")[][] = [
  ["valid", "valid", "invalid"],
  ["invalid", "invalid", "valid"],
  ["valid", "valid", "valid"],
  ["valid", "invalid", "invalid"],
  ["invalid", "invalid", "invalid"],
  ["valid", "valid", "invalid"],
  ["valid", "valid", "valid"],
  ["invalid", "valid", "invalid"],
];
const LANGUAGES = ["python", "python", "python", "python", "python", "python", "cpp", "cpp"];

let admin: Actor;
let dataset: string;
let annotators: Actor[];

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  annotators = [
    await makeUser("ANNOTATOR", ["python", "cpp"]),
    await makeUser("ANNOTATOR", ["python", "cpp"]),
    await makeUser("ANNOTATOR", ["python", "cpp"]),
  ];
  dataset = uniqueName("dawid-skene");
  const seed = dataset.replaceAll("-", "_");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(LANGUAGES.map((language, n) => makeRecord(`${seed}_${n}`, { language })))),
    skipInvalid: false,
    origin: "api",
  });
  const campaign = await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("Dawid-Skene"),
      overlap: 3,
      agreementFraction: 0,
      blind: false,
      finalRule: "majority",
      leaseMinutes: 30,
    },
  });
  const items = await prisma().campaignItem.findMany({
    where: { campaignId: campaign.id },
    select: { id: true, record: { select: { line: true, id: true } } },
  });
  // Records keep their line in the imported file (1-based).
  const byRecord = new Map(items.map((item) => [item.record.line - 1, item]));
  for (const [record, verdicts] of VERDICTS.entries()) {
    const item = byRecord.get(record)!;
    for (const [annotator, verdict] of verdicts.entries()) {
      await holdItem({ userId: annotators[annotator].id, itemId: item.id });
      await submitAnnotation({
        actor: annotators[annotator],
        itemId: item.id,
        input: {
          valid: verdict === "valid",
          categories: verdict === "valid" ? [] : ["other"],
          note: null,
          needsReview: false,
          activeMs: 1000,
        },
      });
    }
  }
  await prisma().goldLabel.create({ data: { recordId: byRecord.get(1)!.record.id, valid: false, categories: [] } });
});

/** An estimate with each number matched to 12 decimals. */
function close(estimate: ReturnType<typeof validityWithInterval>) {
  if (!estimate) return estimate;
  return {
    n: estimate.n,
    validity: expect.closeTo(estimate.validity, 12),
    interval: estimate.interval?.map((bound) => expect.closeTo(bound, 12)) ?? null,
  };
}

describe("getDatasetDawidSkene", () => {
  it("equals the estimator run on the same labels written by hand, per language and per annotator", async () => {
    const estimate = await getDatasetDawidSkene({ actor: admin, datasetName: dataset });
    const expected = fitDawidSkene({
      itemCount: VERDICTS.length,
      raterCount: 3,
      labelItem: Int32Array.from(VERDICTS.flatMap((verdicts, record) => verdicts.map(() => record))),
      labelRater: Int32Array.from(VERDICTS.flatMap((verdicts) => verdicts.map((_, annotator) => annotator))),
      labelValid: Uint8Array.from(VERDICTS.flatMap((verdicts) => verdicts.map((v) => (v === "valid" ? 1 : 0)))),
      known: Int8Array.from(VERDICTS.map((_, record) => (record === 1 ? 0 : -1))),
    });
    expect(estimate.byLanguage.map((row) => row.language)).toEqual(["cpp", "python"]);
    // SQL hands the labels over in its own order, so sums may differ in the last bit.
    expect(estimate.byLanguage[0]).toEqual({
      language: "cpp",
      ...close(validityWithInterval(expected.pValid, [6, 7])),
    });
    expect(estimate.byLanguage[1]).toEqual({
      language: "python",
      ...close(validityWithInterval(expected.pValid, [0, 1, 2, 3, 4, 5])),
    });
    expect(estimate.annotators).toEqual(
      annotators
        .map((annotator, index) => ({
          email: annotator.email,
          labels: 8,
          sensitivity: expect.closeTo(expected.raters[index].sensitivity, 12),
          specificity: expect.closeTo(expected.raters[index].specificity, 12),
        }))
        .sort((a, b) => a.email.localeCompare(b.email)),
    );
    expect(estimate.converged).toBe(true);
  });

  it("leaves the rule-based report as it is", async () => {
    const before = await getDatasetReport({ actor: admin, datasetName: dataset });
    await getDatasetDawidSkene({ actor: admin, datasetName: dataset });
    expect(await getDatasetReport({ actor: admin, datasetName: dataset })).toEqual(before);
    // Majority of three: records 0, 2, 5 and 6 valid; 1, 3, 4 and 7 invalid.
    expect(before.pooled).toMatchObject({ resolved: 8, valid: 4 });
  });

  it("is refused to annotators and names a missing dataset", async () => {
    await expect(getDatasetDawidSkene({ actor: annotators[0], datasetName: dataset })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(getDatasetDawidSkene({ actor: admin, datasetName: "no-such-dataset" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
