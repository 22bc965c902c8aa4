// Integration tests of the workspace's one-request loop against the embedded PostgreSQL: a label
// or a skip and the claim of the next item together, under the queue's lease and blind-mode rules.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { changeCampaignStatus } from "@/lib/server/campaigns/lifecycle";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { skipItemAndClaimNext, submitAnnotationAndClaimNext } from "@/lib/server/labelling/next-item";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";

let admin: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

const label = { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 };

/** A campaign over `count` python records with a failing critic verdict each; overlap 1. */
async function makeCampaign(count: number, blind = false): Promise<string> {
  const name = uniqueName("next");
  const records = Array.from({ length: count }, (_, index) =>
    makeRecord(`n${index}_${name.replaceAll("-", "_")}`, {
      critic_result: { summary: { overall_pass: false, failed_rules: ["Other Issues"], key_points: [] } },
    }),
  );
  await importRecords({
    actor: admin,
    datasetName: name,
    source: chunks(toJsonl(records)),
    skipInvalid: false,
    origin: "api",
  });
  return (
    await createCampaign({
      actor: admin,
      input: { dataset: name, name, overlap: 1, agreementFraction: 0, blind, finalRule: "consensus", leaseMinutes: 30 },
    })
  ).id;
}

const activeLeases = (userId: string, campaignId: string) =>
  prisma().assignment.findMany({ where: { userId, status: "ACTIVE", item: { campaignId } }, select: { itemId: true } });

describe("submitAnnotationAndClaimNext", () => {
  it("saves the label and hands out the next item in campaign order, until none is left", async () => {
    const campaignId = await makeCampaign(2);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const first = await claimNextItem({ actor: ann, campaignId });
    const result = await submitAnnotationAndClaimNext({ actor: ann, itemId: first!.itemId, input: label });
    expect(result).toMatchObject({
      campaignId,
      isCriticRevealed: false,
      annotation: { created: true, revision: 1 },
      next: { isNew: true },
    });
    expect(result.next!.itemId).not.toBe(first!.itemId);
    expect(await prisma().annotation.count({ where: { itemId: first!.itemId, userId: ann.id } })).toBe(1);
    // The next item is leased to the annotator, and it is the one /next would open.
    expect(await activeLeases(ann.id, campaignId)).toEqual([{ itemId: result.next!.itemId }]);
    expect(await claimNextItem({ actor: ann, campaignId })).toMatchObject({
      itemId: result.next!.itemId,
      isNew: false,
    });

    const last = await submitAnnotationAndClaimNext({ actor: ann, itemId: result.next!.itemId, input: label });
    expect(last).toMatchObject({ annotation: { created: true }, next: null });
  });

  it("revising an earlier label returns the lease already held instead of taking a second item", async () => {
    const campaignId = await makeCampaign(3);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const first = await claimNextItem({ actor: ann, campaignId });
    const moved = await submitAnnotationAndClaimNext({ actor: ann, itemId: first!.itemId, input: label });
    const revised = await submitAnnotationAndClaimNext({
      actor: ann,
      itemId: first!.itemId,
      input: { ...label, valid: false, categories: ["other"], baseRevision: 1 },
    });
    expect(revised).toMatchObject({
      annotation: { created: false, revision: 2 },
      next: { itemId: moved.next!.itemId, isNew: false },
    });
    expect(await activeLeases(ann.id, campaignId)).toHaveLength(1);
  });

  it("in blind mode a first label reveals the critic and claims nothing; confirming it moves on", async () => {
    const campaignId = await makeCampaign(2, true);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const first = await claimNextItem({ actor: ann, campaignId });
    const revealed = await submitAnnotationAndClaimNext({ actor: ann, itemId: first!.itemId, input: label });
    expect(revealed).toMatchObject({ isCriticRevealed: true, next: null, annotation: { created: true } });
    expect(await activeLeases(ann.id, campaignId)).toEqual([]);
    const stored = await prisma().annotation.findFirstOrThrow({
      where: { itemId: first!.itemId, userId: ann.id },
      select: { preRevealValid: true },
    });
    expect(stored.preRevealValid).toBe(true);
    // Enter again with the label unchanged: nothing new is written and the next item is claimed.
    const confirmed = await submitAnnotationAndClaimNext({
      actor: ann,
      itemId: first!.itemId,
      input: { ...label, baseRevision: 1 },
    });
    expect(confirmed).toMatchObject({
      isCriticRevealed: false,
      annotation: { created: false, revision: 1 },
      next: { isNew: true },
    });
    expect(confirmed.next!.itemId).not.toBe(first!.itemId);
  });

  it("keeps the label of a paused campaign's ended lease and hands out nothing", async () => {
    const campaignId = await makeCampaign(2);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const first = await claimNextItem({ actor: ann, campaignId });
    await changeCampaignStatus({ actor: admin, campaignId, action: "pause" });
    const result = await submitAnnotationAndClaimNext({ actor: ann, itemId: first!.itemId, input: label });
    expect(result).toMatchObject({ annotation: { created: true }, next: null });
    expect(await activeLeases(ann.id, campaignId)).toEqual([]);
  });

  it("refuses another annotator's item and an item never claimed, writing and claiming nothing", async () => {
    const campaignId = await makeCampaign(2);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const bob = await makeUser("ANNOTATOR", ["python"]);
    const held = await claimNextItem({ actor: ann, campaignId });
    const other = await prisma().campaignItem.findFirstOrThrow({
      where: { campaignId, id: { not: held!.itemId } },
      select: { id: true },
    });
    await expect(
      submitAnnotationAndClaimNext({ actor: bob, itemId: held!.itemId, input: label }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(submitAnnotationAndClaimNext({ actor: ann, itemId: other.id, input: label })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await prisma().annotation.count({ where: { item: { campaignId } } })).toBe(0);
    expect(await activeLeases(bob.id, campaignId)).toEqual([]);
  });

  it("a skipped item cannot be labelled, and the label claims nothing", async () => {
    const campaignId = await makeCampaign(2);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const first = await claimNextItem({ actor: ann, campaignId });
    const skipped = await skipItemAndClaimNext({ actor: ann, itemId: first!.itemId, reason: "not my area" });
    expect(skipped).toMatchObject({ campaignId, next: { isNew: true } });
    expect(skipped.next!.itemId).not.toBe(first!.itemId);
    await expect(
      submitAnnotationAndClaimNext({ actor: ann, itemId: first!.itemId, input: label }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await activeLeases(ann.id, campaignId)).toEqual([{ itemId: skipped.next!.itemId }]);
    // The REST path and this one write the same label.
    await expect(submitAnnotation({ actor: ann, itemId: skipped.next!.itemId, input: label })).resolves.toMatchObject({
      created: true,
    });
  });
});

describe("skipItemAndClaimNext", () => {
  it("refuses an item the actor does not hold and claims nothing", async () => {
    const campaignId = await makeCampaign(2);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const bob = await makeUser("ANNOTATOR", ["python"]);
    const held = await claimNextItem({ actor: ann, campaignId });
    await expect(skipItemAndClaimNext({ actor: bob, itemId: held!.itemId, reason: "mine now" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await activeLeases(bob.id, campaignId)).toEqual([]);
    expect(await activeLeases(ann.id, campaignId)).toEqual([{ itemId: held!.itemId }]);
  });
});
