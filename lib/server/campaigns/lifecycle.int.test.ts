// A campaign's lifecycle against PostgreSQL: settings editable until labels exist, pause/resume/
// close/archive with leases ended cleanly, and delete only while nothing is labelled.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { deleteCampaign } from "@/lib/server/campaigns/delete-campaign";
import { changeCampaignStatus, updateCampaignSettings } from "@/lib/server/campaigns/lifecycle";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";

let admin: Actor;
let reviewer: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  reviewer = await makeUser("REVIEWER");
});

async function makeCampaign({ records = 3, overlap = 1, agreementFraction = 0 } = {}) {
  const dataset = uniqueName("life");
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
      name: uniqueName("Life"),
      overlap,
      agreementFraction,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
}

const label = { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 };

describe("updateCampaignSettings", () => {
  it("renames and changes overlap before labels exist (overlap 2: every item, agreement subset or not, wants two)", async () => {
    const campaign = await makeCampaign({ records: 4, agreementFraction: 1 });
    const name = uniqueName("Renamed");
    const updated = await updateCampaignSettings({
      actor: admin,
      campaignId: campaign.id,
      input: { name, overlap: 2 },
    });
    expect(updated).toMatchObject({ name, overlap: 2, agreementFraction: 0 });
    expect(
      await prisma().campaignItem.findMany({ where: { campaignId: campaign.id }, select: { target: true } }),
    ).toEqual(Array(4).fill({ target: 2 }));
    expect(await prisma().auditEvent.count({ where: { targetId: campaign.id, action: "campaign.update" } })).toBe(1);
  });

  it("refuses an overlap change once a label exists, and a name in use", async () => {
    const campaign = await makeCampaign();
    const other = await makeCampaign();
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
    await submitAnnotation({ actor: annotator, itemId: claim!.itemId, input: label });
    await expect(
      updateCampaignSettings({ actor: admin, campaignId: campaign.id, input: { overlap: 3 } }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      updateCampaignSettings({ actor: admin, campaignId: campaign.id, input: { name: other.name } }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    const renamed = await updateCampaignSettings({
      actor: admin,
      campaignId: campaign.id,
      input: { name: uniqueName("Still renamable") },
    });
    expect(renamed.overlap).toBe(1);
    await expect(
      updateCampaignSettings({ actor: reviewer, campaignId: campaign.id, input: { name: "x" } }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("changeCampaignStatus", () => {
  it("pausing ends the leases and stops claims; resuming hands items out again", async () => {
    const campaign = await makeCampaign();
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
    expect(claim).not.toBeNull();

    const paused = await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "pause" });
    expect(paused).toMatchObject({ status: "PAUSED", endedLeases: 1 });
    expect(
      await prisma().assignment.findMany({ where: { item: { campaignId: campaign.id } }, select: { status: true } }),
    ).toEqual([{ status: "EXPIRED" }]);
    expect(
      await prisma().campaignItem.aggregate({ where: { campaignId: campaign.id }, _sum: { slotsTaken: true } }),
    ).toMatchObject({ _sum: { slotsTaken: 0 } });
    await expect(claimNextItem({ actor: annotator, campaignId: campaign.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/paused/),
    });
    await expect(
      changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "pause" }),
    ).rejects.toMatchObject({ code: "CONFLICT" });

    await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "resume" });
    expect(await claimNextItem({ actor: annotator, campaignId: campaign.id })).not.toBeNull();
  });

  it("closes, archives and reopens in order; a closed campaign hands out nothing", async () => {
    const campaign = await makeCampaign();
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    await expect(
      changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "archive" }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "close" })).toMatchObject({
      status: "CLOSED",
    });
    await expect(claimNextItem({ actor: annotator, campaignId: campaign.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/closed/),
    });
    expect(await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "archive" })).toMatchObject({
      status: "ARCHIVED",
    });
    expect((await getCampaign({ actor: admin, campaignId: campaign.id })).status).toBe("ARCHIVED");
    expect(await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "unarchive" })).toMatchObject({
      status: "CLOSED",
    });
    expect(await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "reopen" })).toMatchObject({
      status: "ACTIVE",
    });
    expect(
      await prisma().auditEvent.findMany({
        where: { targetId: campaign.id, action: { startsWith: "campaign.status" } },
        orderBy: { createdAt: "asc" },
        select: { after: true },
      }),
    ).toHaveLength(4);
  });
});

describe("labels after closing", () => {
  it("a closed campaign refuses a label from a lease it ended; a paused one still takes it", async () => {
    const campaign = await makeCampaign({ records: 2 });
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const first = await claimNextItem({ actor: annotator, campaignId: campaign.id });
    await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "pause" });
    await expect(submitAnnotation({ actor: annotator, itemId: first!.itemId, input: label })).resolves.toBeTruthy();
    await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "resume" });
    const second = await claimNextItem({ actor: annotator, campaignId: campaign.id });
    await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "close" });
    await expect(submitAnnotation({ actor: annotator, itemId: second!.itemId, input: label })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/closed/),
    });
    expect(await prisma().annotation.count({ where: { item: { campaignId: campaign.id } } })).toBe(1);
  });
});

describe("deleteCampaign", () => {
  it("deletes a campaign without labels, and refuses one with a label", async () => {
    const empty = await makeCampaign();
    await deleteCampaign({ actor: admin, campaignId: empty.id });
    expect(await prisma().campaign.findUnique({ where: { id: empty.id } })).toBeNull();
    expect(await prisma().campaignItem.count({ where: { campaignId: empty.id } })).toBe(0);
    expect(await prisma().auditEvent.count({ where: { targetId: empty.id, action: "campaign.delete" } })).toBe(1);

    const labelled = await makeCampaign();
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: annotator, campaignId: labelled.id });
    await submitAnnotation({ actor: annotator, itemId: claim!.itemId, input: label });
    await expect(deleteCampaign({ actor: admin, campaignId: labelled.id })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(deleteCampaign({ actor: admin, campaignId: "no-such-campaign" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("deleting a campaign while labels are submitted", () => {
  it("never acknowledges a label and then loses it: the delete or the submit is refused, 50 times over", async () => {
    const dataset = uniqueName("race");
    const seed = dataset.replaceAll("-", "_");
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl([makeRecord(`${seed}_0`)])),
      skipInvalid: false,
      origin: "api",
    });
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const outcomes = { labelKept: 0, deleted: 0 };
    for (let attempt = 0; attempt < 50; attempt++) {
      const campaign = await createCampaign({
        actor: admin,
        input: {
          dataset,
          name: uniqueName("Race"),
          overlap: 1,
          agreementFraction: 0,
          blind: false,
          finalRule: "consensus",
          leaseMinutes: 30,
        },
      });
      const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
      const [submit, remove] = await Promise.allSettled([
        submitAnnotation({ actor: annotator, itemId: claim!.itemId, input: label }),
        deleteCampaign({ actor: admin, campaignId: campaign.id }),
      ]);
      // Never both: an acknowledged label must still be there.
      expect([submit.status, remove.status]).not.toEqual(["fulfilled", "fulfilled"]);
      if (submit.status === "fulfilled") {
        expect(remove).toMatchObject({ status: "rejected", reason: { code: "CONFLICT" } });
        expect(await prisma().annotation.count({ where: { id: submit.value.id } })).toBe(1);
        outcomes.labelKept++;
      } else {
        expect(remove.status).toBe("fulfilled");
        expect(submit.reason).toMatchObject({ code: "NOT_FOUND" });
        outcomes.deleted++;
      }
    }
    expect(outcomes.labelKept + outcomes.deleted).toBe(50);
  });
});
