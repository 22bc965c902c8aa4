import "server-only";

import type { CampaignSampling, PreLabelVisibility } from "@/lib/generated/prisma/enums";
import { writeAudit } from "@/lib/server/audit/audit";
import { insertSample } from "@/lib/server/campaigns/queries";
import { prisma } from "@/lib/server/db/client";

// The job half of creating a large campaign (insert-campaign.ts stores the campaign with a RUNNING
// item draw; draw-queue.ts queues and runs this). Workers act as the system: they take no actor.

/** What a draw job found: it inserted the items, or they were drawn already (a retry), or the campaign is gone. */
export type ItemDrawOutcome = { outcome: "drawn"; itemCount: number } | { outcome: "already drawn" | "no draw" };

/**
 * Inserts a campaign's sample for its RUNNING item draw, exactly as insertCampaign would have in the
 * request (the same insertSample over the campaign's stored key, languages and size), sets its item
 * count and marks the draw SUCCEEDED, in one transaction. The draw row is locked first, so a job
 * delivered twice (a retry, a worker thought dead) waits for the first and then finds it SUCCEEDED:
 * nothing is inserted twice. A deleted campaign took its draw with it: nothing to do.
 */
export async function drawCampaignItems({ campaignId }: { campaignId: string }): Promise<ItemDrawOutcome> {
  return prisma().$transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<
        {
          status: string;
          datasetId: string;
          seed: string;
          sampleKey: string | null;
          languages: string[];
          perLanguage: number | null;
          overlap: number;
          agreementFraction: number;
          sampling: CampaignSampling;
          visibility: PreLabelVisibility;
        }[]
      >`
        SELECT d.status, c."datasetId", c.seed, c."sampleKey", c.languages, c."perLanguage", c.overlap,
               c."agreementFraction", c.sampling, c.visibility
        FROM "CampaignItemDraw" d JOIN "Campaign" c ON c.id = d."campaignId"
        WHERE d."campaignId" = ${campaignId}
        FOR UPDATE OF d`;
      if (!row) return { outcome: "no draw" };
      if (row.status !== "RUNNING") return { outcome: "already drawn" };
      // SQL rules run by this insert: see insertSample (CampaignItem's note_changes trigger).
      const itemCount = await insertSample(tx, {
        campaignId,
        datasetId: row.datasetId,
        drawKey: row.sampleKey ?? row.seed,
        languages: row.languages,
        perLanguage: row.perLanguage,
        overlap: row.overlap,
        agreementFraction: row.agreementFraction,
        sampling: row.sampling === "SUSPICION" ? "suspicion" : "random",
        visibility: row.visibility,
      });
      await tx.campaign.update({ where: { id: campaignId }, data: { itemCount } });
      await tx.campaignItemDraw.update({
        where: { campaignId },
        data: { status: "SUCCEEDED", finishedAt: new Date() },
      });
      await writeAudit(tx, {
        actorId: null,
        action: "campaign.items_drawn",
        targetType: "Campaign",
        targetId: campaignId,
        campaignId,
        after: { itemCount },
      });
      return { outcome: "drawn", itemCount };
    },
    // The insert of 100,000 ranked records takes about half a minute on a loaded two-core machine.
    { timeout: 15 * 60_000 },
  );
}

/**
 * Ends a RUNNING item draw as FAILED with the reason (the job failed in a way a retry would repeat,
 * or could not be queued), so the campaign says so instead of drawing forever. A draw that ended
 * meanwhile is left as it is.
 */
export async function failItemDraw({ campaignId, reason }: { campaignId: string; reason: string }): Promise<void> {
  await prisma().campaignItemDraw.updateMany({
    where: { campaignId, status: "RUNNING" },
    data: { status: "FAILED", stopReason: reason, finishedAt: new Date() },
  });
}
