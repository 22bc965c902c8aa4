// After creation a campaign's taxonomy can be reordered until the first label (the order is the
// workspace's 1–9 keys); and an annotator whose lease a pause ended can still skip the item.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { changeCampaignStatus } from "@/lib/server/campaigns/lifecycle";
import { reorderCampaignCategories } from "@/lib/server/campaigns/taxonomy";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { getCampaignProgress } from "@/lib/server/campaigns/get-campaign-progress";
import { listCategories } from "@/lib/server/campaigns/list-categories";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { skipItem } from "@/lib/server/labelling/skip-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";

let admin: Actor;
let reviewer: Actor;
let annotator: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  reviewer = await makeUser("REVIEWER");
  annotator = await makeUser("ANNOTATOR", ["python"]);
});

async function makeCampaign(records = 2) {
  const dataset = uniqueName("taxonomy");
  const seed = dataset.replaceAll("-", "_");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(Array.from({ length: records }, (_, n) => makeRecord(`${seed}_${n}`)))),
    skipInvalid: false,
    origin: "api",
  });
  return createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("Taxonomy"),
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
}

const keysOf = async (campaignId: string) =>
  (await listCategories({ actor: admin, campaignId })).map((category) => category.key);

describe("reorderCampaignCategories", () => {
  it("reorders until the first label, then refuses with CONFLICT and keeps the order", async () => {
    const campaign = await makeCampaign();
    const before = await keysOf(campaign.id);
    const reordered = [before[1], before[0], ...before.slice(2).reverse()];
    await reorderCampaignCategories({ actor: admin, campaignId: campaign.id, keys: reordered });
    expect(await keysOf(campaign.id)).toEqual(reordered);
    expect(
      await prisma().auditEvent.count({ where: { action: "campaign.categories.reorder", targetId: campaign.id } }),
    ).toBe(1);

    const claim = (await claimNextItem({ actor: annotator, campaignId: campaign.id }))!;
    await submitAnnotation({
      actor: annotator,
      itemId: claim.itemId,
      input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
    });
    await expect(
      reorderCampaignCategories({ actor: admin, campaignId: campaign.id, keys: before }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await keysOf(campaign.id)).toEqual(reordered);
  });

  it("refuses a list that is not the campaign's categories exactly once, and anyone but an admin", async () => {
    const campaign = await makeCampaign();
    const keys = await keysOf(campaign.id);
    for (const wrong of [
      keys.slice(1),
      [...keys, "other"],
      [keys[0], ...keys.slice(0, -1)],
      [...keys.slice(1), "made-up"],
    ])
      await expect(
        reorderCampaignCategories({ actor: admin, campaignId: campaign.id, keys: wrong }),
      ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(
      reorderCampaignCategories({ actor: reviewer, campaignId: campaign.id, keys: [...keys].reverse() }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(reorderCampaignCategories({ actor: admin, campaignId: "cmp_missing", keys })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await keysOf(campaign.id)).toEqual(keys);
  });
});

describe("listCategories", () => {
  it("gives the taxonomy to whoever sees the campaign and nothing to an annotator of other languages", async () => {
    const campaign = await makeCampaign();
    const keys = await keysOf(campaign.id);
    expect(keys.length).toBeGreaterThan(0);
    const keysFor = async (actor: Actor) =>
      (await listCategories({ actor, campaignId: campaign.id })).map((category) => category.key);
    expect(await keysFor(reviewer)).toEqual(keys);
    expect(await keysFor(annotator)).toEqual(keys);
    expect(await keysFor(await makeUser("ANNOTATOR", ["rust"]))).toEqual([]);
  });
});

describe("skipping after the lease ended", () => {
  it("an annotator whose lease a pause ended can still skip the item; its slot is not given back twice", async () => {
    const campaign = await makeCampaign(1);
    const claim = (await claimNextItem({ actor: annotator, campaignId: campaign.id }))!;
    await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "pause" });
    const slotsAfterPause = (await prisma().campaignItem.findUniqueOrThrow({ where: { id: claim.itemId } })).slotsTaken;
    expect(slotsAfterPause).toBe(0);

    await skipItem({ actor: annotator, itemId: claim.itemId, reason: "Paused before I could finish." });
    expect((await prisma().campaignItem.findUniqueOrThrow({ where: { id: claim.itemId } })).slotsTaken).toBe(0);
    expect((await getCampaignProgress({ actor: annotator, campaignId: campaign.id })).mine.skipped).toBe(1);
    // A skip is final: a second one, or a label, finds nothing to act on.
    await expect(skipItem({ actor: annotator, itemId: claim.itemId, reason: "again" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      submitAnnotation({
        actor: annotator,
        itemId: claim.itemId,
        input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
      }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
  });
});
