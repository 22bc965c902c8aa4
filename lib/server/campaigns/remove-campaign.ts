import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";

// The job half of deleting a large campaign (lifecycle.ts's deleteOrMarkCampaign marks it DELETING
// with a RUNNING CampaignDeletion; deletion-queue.ts queues and runs this). Workers act as the
// system: they take no actor.

/** What a removal job found: it deleted the campaign, or there was nothing to delete (a retry, or a deletion not running). */
export type CampaignRemovalOutcome = { outcome: "removed" | "not deleting" };

/**
 * Deletes a campaign marked DELETING, with its items and categories, and marks its deletion
 * SUCCEEDED, in one transaction. The deletion row is locked first, so a job delivered twice waits
 * for the first and then finds it SUCCEEDED; a job killed half-way removed nothing (it rolls back).
 */
export async function removeCampaign({ campaignId }: { campaignId: string }): Promise<CampaignRemovalOutcome> {
  return prisma().$transaction(
    async (tx) => {
      const [deletion] = await tx.$queryRaw<{ status: string }[]>`
        SELECT status FROM "CampaignDeletion" WHERE "campaignId" = ${campaignId} FOR UPDATE`;
      if (!deletion || deletion.status !== "RUNNING") return { outcome: "not deleting" as const };
      // SQL rules run by the cascade to items and categories (prisma/sql): triggers/CampaignItem.*_delete.sql
      // and ErrorCategory.*_delete.sql, running functions/verity_items_removed.sql, verity_note_item_changes.sql,
      // verity_categories_changed.sql and verity_note_category_changes.sql (which find no campaign to note).
      await tx.campaign.deleteMany({ where: { id: campaignId, status: "DELETING" } });
      await tx.campaignDeletion.update({
        where: { campaignId },
        data: { status: "SUCCEEDED", finishedAt: new Date() },
      });
      return { outcome: "removed" as const };
    },
    // The items of a 100,000-record campaign take several seconds on a loaded two-core machine.
    { timeout: 30 * 60_000 },
  );
}

/**
 * Ends a RUNNING deletion as FAILED with the reason: the campaign stays DELETING (gone from lists
 * and claims), and the campaigns page says so; deleting it again retries. A deletion that ended
 * meanwhile is left as it is.
 */
export async function failCampaignRemoval({
  campaignId,
  reason,
}: {
  campaignId: string;
  reason: string;
}): Promise<void> {
  await prisma().campaignDeletion.updateMany({
    where: { campaignId, status: "RUNNING" },
    data: { status: "FAILED", stopReason: reason, finishedAt: new Date() },
  });
}

/** A deletion still under way, or one that failed, as the campaigns page shows it. */
export type PendingCampaignDeletion = {
  campaignId: string;
  campaignName: string;
  items: number;
  status: "RUNNING" | "FAILED";
  stopReason: string | null;
};

/**
 * The campaign deletions not yet done (RUNNING) or that failed, newest first (at most 20): the
 * campaigns page shows them where the campaigns were. Annotators see those of campaigns in their
 * languages. Scope: records:read.
 */
export async function listPendingCampaignDeletions({ actor }: { actor: Actor }): Promise<PendingCampaignDeletion[]> {
  assertCan(actor, "records:read");
  const rows = await prisma().campaignDeletion.findMany({
    where: {
      status: { in: ["RUNNING", "FAILED"] },
      ...(actor.role === "ANNOTATOR" ? { languages: { hasSome: actor.languages } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 20,
    select: { campaignId: true, campaignName: true, items: true, status: true, stopReason: true },
  });
  return rows.map((row) => ({ ...row, status: row.status === "FAILED" ? "FAILED" : "RUNNING" }));
}
