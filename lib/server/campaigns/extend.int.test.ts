// Adding records to a running campaign: a larger sample under the same seed rules, so the campaign
// holds exactly what a fresh campaign with the larger size would, and labels so far are kept.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { changeCampaignStatus } from "@/lib/server/campaigns/lifecycle";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { extendCampaign } from "@/lib/server/campaigns/extend-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";

let admin: Actor;
let dataset: string;
const records = (language: string, count: number, from = 0) =>
  Array.from({ length: count }, (_, index) =>
    makeRecord(`x${language}${from + index}_${dataset.replaceAll("-", "_")}`, { language }),
  );
const base = { overlap: 1, agreementFraction: 0, blind: false, finalRule: "consensus" as const, leaseMinutes: 30 };
const recordIds = async (campaignId: string) =>
  (await prisma().campaignItem.findMany({ where: { campaignId }, select: { recordId: true } }))
    .map((item) => item.recordId)
    .sort((a, b) => a - b);

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  dataset = uniqueName("extend");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl([...records("python", 6), ...records("cpp", 4)])),
    skipInvalid: false,
    origin: "api",
  });
});

describe("adding records to a running campaign", () => {
  it("samples more per language with the same seed, keeps the labels so far and reports the strata before and after", async () => {
    const campaign = await createCampaign({
      actor: admin,
      input: { ...base, dataset, name: uniqueName("extend"), perLanguage: 2, seed: "s1" },
    });
    const annotator = await makeUser("ANNOTATOR", ["python", "cpp"]);
    const first = await prisma().campaignItem.findFirstOrThrow({
      where: { campaignId: campaign.id },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    await holdItem({ userId: annotator.id, itemId: first.id });
    await submitAnnotation({
      actor: annotator,
      itemId: first.id,
      input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
    });
    const maxBefore = (
      await prisma().campaignItem.aggregate({ where: { campaignId: campaign.id }, _max: { position: true } })
    )._max.position!;

    const result = await extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: 4 } });

    expect(result).toEqual({
      status: "SUCCEEDED",
      added: 4,
      perLanguage: 4,
      before: { cpp: 2, python: 2 },
      after: { cpp: 4, python: 4 },
    });
    // The same items a campaign created with the larger size and the same seed would hold.
    const fresh = await createCampaign({
      actor: admin,
      input: { ...base, dataset, name: uniqueName("fresh"), perLanguage: 4, seed: "s1" },
    });
    expect(await recordIds(campaign.id)).toEqual(await recordIds(fresh.id));
    const stored = await prisma().campaign.findUniqueOrThrow({
      where: { id: campaign.id },
      select: { itemCount: true, perLanguage: true },
    });
    expect(stored).toEqual({ itemCount: 8, perLanguage: 4 });
    // New items queue after the old ones; the label given so far stays.
    const added = await prisma().campaignItem.findMany({
      where: { campaignId: campaign.id, position: { gt: maxBefore } },
      select: { target: true },
    });
    expect(added).toHaveLength(4);
    expect(added.every((item) => item.target === 1)).toBe(true);
    expect(await prisma().annotation.count({ where: { itemId: first.id } })).toBe(1);
    expect(await prisma().auditEvent.count({ where: { action: "campaign.extend", targetId: campaign.id } })).toBe(1);
  });

  it("takes in records imported since, and a new language, when asked for all", async () => {
    const campaign = await createCampaign({
      actor: admin,
      input: { ...base, dataset, name: uniqueName("extend"), languages: ["python"], seed: "s2" },
    });
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl(records("python", 2, 100))),
      skipInvalid: false,
      origin: "api",
    });
    const result = await extendCampaign({
      actor: admin,
      campaignId: campaign.id,
      input: { perLanguage: null, languages: ["python", "cpp"] },
    });
    expect(result).toMatchObject({ added: 6, before: { python: 6 }, after: { python: 8, cpp: 4 } });
    expect(
      (await prisma().campaign.findUniqueOrThrow({ where: { id: campaign.id }, select: { languages: true } }))
        .languages,
    ).toEqual(["cpp", "python"]);
  });

  it("refuses to shrink the sample or drop a language, and changes nothing", async () => {
    const campaign = await createCampaign({
      actor: admin,
      input: { ...base, dataset, name: uniqueName("extend"), perLanguage: 3, seed: "s3" },
    });
    await expect(
      extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: 2 } }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(
      extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: 3, languages: ["cpp"] } }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(
      extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: 3, languages: ["rust"] } }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(
      extendCampaign({ actor: await makeUser("REVIEWER"), campaignId: campaign.id, input: { perLanguage: 5 } }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      extendCampaign({ actor: admin, campaignId: "no-such-campaign", input: { perLanguage: 5 } }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await prisma().campaignItem.count({ where: { campaignId: campaign.id } })).toBe(6);
  });

  it("refuses to extend an archived campaign (409, nothing added) and extends it again once unarchived", async () => {
    const campaign = await createCampaign({
      actor: admin,
      input: { ...base, dataset, name: uniqueName("extend"), perLanguage: 2, seed: "s4" },
    });
    for (const action of ["close", "archive"] as const)
      await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action });
    await expect(
      extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: 4 } }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/archived: unarchive it/) });
    expect(await prisma().campaignItem.count({ where: { campaignId: campaign.id } })).toBe(4);
    await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "unarchive" });
    await expect(
      extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: 4 } }),
    ).resolves.toMatchObject({ added: 4 });
  });
});
