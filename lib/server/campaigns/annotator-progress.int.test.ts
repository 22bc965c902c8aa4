// Integration test of per-annotator progress on a campaign against PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { listAnnotatorProgress } from "@/lib/server/campaigns/annotator-progress";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { skipItem } from "@/lib/server/labelling/skip-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";

let admin: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

const label = { valid: true, categories: [], note: null, needsReview: false };

describe("annotator progress", () => {
  it("counts each person's labelled, skipped and leased items and their median time per item", async () => {
    const dataset = uniqueName("progress");
    const records = Array.from({ length: 6 }, (_, index) => makeRecord(`p${index}_${dataset.replaceAll("-", "_")}`));
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
        name: uniqueName("c"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const bea = await makeUser("ANNOTATOR", ["python"]);

    // Ann: three labels (1 s, 4 s, 10 s: median 4 s), one skip, one item held now.
    for (const activeMs of [1000, 10_000, 4000]) {
      const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
      await submitAnnotation({ actor: ann, itemId: claim!.itemId, input: { ...label, activeMs } });
    }
    await skipItem({
      actor: ann,
      itemId: (await claimNextItem({ actor: ann, campaignId: campaign.id }))!.itemId,
      reason: "unsure",
    });
    await claimNextItem({ actor: ann, campaignId: campaign.id });
    // Bea: a lease that ran out counts as neither held nor skipped.
    const expired = await claimNextItem({ actor: bea, campaignId: campaign.id });
    await prisma().assignment.updateMany({
      where: { itemId: expired!.itemId, userId: bea.id },
      data: { leaseExpiresAt: new Date(Date.now() - 1000) },
    });

    const progress = await listAnnotatorProgress({ actor: admin, campaignId: campaign.id });
    const byUser = Object.fromEntries(progress.map((row) => [row.userId, row]));
    expect(byUser[ann.id]).toEqual({
      userId: ann.id,
      email: ann.email,
      name: ann.name,
      labelled: 3,
      skipped: 1,
      inLease: 1,
      medianActiveMs: 4000,
      gold: { n: 0, correct: 0, byLanguage: [] },
    });
    expect(byUser[bea.id]).toMatchObject({ labelled: 0, skipped: 0, inLease: 0, medianActiveMs: null });
    expect(progress).toHaveLength(2);

    const reviewer = await makeUser("REVIEWER", []);
    await expect(listAnnotatorProgress({ actor: reviewer, campaignId: campaign.id })).resolves.toHaveLength(2);
    await expect(listAnnotatorProgress({ actor: ann, campaignId: campaign.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it('counts gold items beside "Labelled", not in it (14 beside a 12-item campaign)', async () => {
    const dataset = uniqueName("progress-gold");
    const records = Array.from({ length: 3 }, (_, index) => makeRecord(`g${index}_${dataset.replaceAll("-", "_")}`));
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
        name: uniqueName("c"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const itemIds: string[] = [];
    for (let n = 0; n < 3; n++) {
      const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
      await submitAnnotation({ actor: ann, itemId: claim!.itemId, input: { ...label, activeMs: 1000 } });
      itemIds.push(claim!.itemId);
    }
    // One of the three is a gold item: it measures Ann, it is not one of the campaign's items to label.
    await prisma().campaignItem.update({ where: { id: itemIds[0] }, data: { gold: true } });
    const [row] = await listAnnotatorProgress({ actor: admin, campaignId: campaign.id });
    expect(row).toMatchObject({ userId: ann.id, labelled: 2 });
  });
});
