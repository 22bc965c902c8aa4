// Campaign settings an admin changes during a campaign: guidelines and whether an invalid label
// needs a note (off by default), enforced when the label is submitted.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { updateCampaignGuidelines } from "@/lib/server/campaigns/update-campaign-guidelines";
import { updateCampaignSettings } from "@/lib/server/campaigns/lifecycle";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { getWorkItem } from "@/lib/server/labelling/get-work-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";

let admin: Actor;
let annotator: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  annotator = await makeUser("ANNOTATOR", ["python"]);
});

async function makeCampaign(options: { requireInvalidNote?: boolean } = {}) {
  const name = uniqueName("settings");
  const records = [0, 1].map((index) => makeRecord(`settings_${index}_${name.replaceAll("-", "_")}`));
  await importRecords({
    actor: admin,
    datasetName: name,
    source: chunks(toJsonl(records)),
    skipInvalid: false,
    origin: "api",
  });
  return createCampaign({
    actor: admin,
    input: {
      dataset: name,
      name,
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
      ...options,
    },
  });
}

const invalidWithoutNote = { valid: false, categories: ["other"], note: null, needsReview: false, activeMs: 10 };

describe("the note rule for invalid labels", () => {
  it("accepts an invalid label with categories and no note by default", async () => {
    const campaign = await makeCampaign();
    expect(campaign.requireInvalidNote).toBe(false);
    const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
    const saved = await submitAnnotation({ actor: annotator, itemId: claim!.itemId, input: invalidWithoutNote });
    expect(saved).toMatchObject({ valid: false, note: null, created: true });
  });

  it("refuses it, writing nothing, where the campaign asks for a note", async () => {
    const campaign = await makeCampaign({ requireInvalidNote: true });
    const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
    await expect(
      submitAnnotation({ actor: annotator, itemId: claim!.itemId, input: invalidWithoutNote }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT", fieldErrors: { note: ["Say why it is invalid."] } });
    expect(await prisma().annotation.count({ where: { itemId: claim!.itemId } })).toBe(0);
    const saved = await submitAnnotation({
      actor: annotator,
      itemId: claim!.itemId,
      input: { ...invalidWithoutNote, note: "The tests expect a different name." },
    });
    expect(saved.created).toBe(true);
  });
});

describe("campaign settings", () => {
  it("lets an admin change the guidelines and the note rule, with an audit row; the workspace sees them", async () => {
    const campaign = await makeCampaign();
    await updateCampaignGuidelines({
      actor: admin,
      input: {
        campaignId: campaign.id,
        guidelines: "## Judge\n\nPrinting is **not** asserting.",
        requireInvalidNote: true,
      },
    });
    expect(await getCampaign({ actor: admin, campaignId: campaign.id })).toMatchObject({
      guidelines: "## Judge\n\nPrinting is **not** asserting.",
      requireInvalidNote: true,
    });
    const audit = await prisma().auditEvent.findFirst({
      where: { targetId: campaign.id, action: "campaign.settings" },
      select: { actorId: true },
    });
    expect(audit?.actorId).toBe(admin.id);
    const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
    const work = await getWorkItem({ actor: annotator, itemId: claim!.itemId });
    expect(work.campaign).toMatchObject({
      guidelines: "## Judge\n\nPrinting is **not** asserting.",
      requireInvalidNote: true,
    });
  });

  it("refuses annotators and an unknown campaign", async () => {
    const campaign = await makeCampaign();
    await expect(
      updateCampaignGuidelines({
        actor: annotator,
        input: { campaignId: campaign.id, guidelines: "mine now", requireInvalidNote: false },
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      updateCampaignGuidelines({
        actor: admin,
        input: { campaignId: "no-such-campaign", guidelines: "", requireInvalidNote: false },
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await getCampaign({ actor: admin, campaignId: campaign.id })).guidelines).toBe("");
  });
});

describe("what annotators see before their first label", () => {
  it("changes until an item is claimed, keeps blind in step, is audited, and is fixed afterwards", async () => {
    const campaign = await makeCampaign();
    expect(campaign.visibility).toBe("all");
    const updated = await updateCampaignSettings({
      actor: admin,
      campaignId: campaign.id,
      input: { visibility: "nothing" },
    });
    expect(updated).toMatchObject({ visibility: "nothing", blind: true });
    const audit = await prisma().auditEvent.findFirstOrThrow({
      where: { targetId: campaign.id, action: "campaign.update" },
      orderBy: { createdAt: "desc" },
    });
    expect(audit).toMatchObject({ before: { visibility: "all" }, after: { visibility: "nothing" } });

    await claimNextItem({ actor: annotator, campaignId: campaign.id });
    await expect(
      updateCampaignSettings({ actor: admin, campaignId: campaign.id, input: { visibility: "all" } }),
    ).rejects.toMatchObject({ code: "CONFLICT", fieldErrors: { visibility: ["Items are claimed already."] } });
    expect((await getCampaign({ actor: admin, campaignId: campaign.id })).visibility).toBe("nothing");
    // Asking for the level it already has changes nothing and is not refused.
    expect(
      (await updateCampaignSettings({ actor: admin, campaignId: campaign.id, input: { visibility: "nothing" } }))
        .visibility,
    ).toBe("nothing");
  });
});
