import "server-only";

import type { CampaignListProgress } from "@/lib/campaigns/types";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { canSeeGoldAnswers, visibleCampaignWhere } from "@/lib/server/auth/visibility";
import {
  sumProgressCounts,
  asSeenByAnnotator,
  annotatorGold,
  queryProgressCounts,
} from "@/lib/server/campaigns/queries";

/**
 * Progress of many campaigns at once, for the campaign list: one query over the item counters, and
 * for an annotator each campaign as asSeenByAnnotator shows it (the same figures as its page, so a
 * gold label moves the list's bar as a sample label does). Scope: records:read; only campaigns the
 * actor may see are counted (others are left out).
 */
export async function listCampaignProgress({
  actor,
  campaignIds,
}: {
  actor: Actor;
  campaignIds: string[];
}): Promise<Map<string, CampaignListProgress>> {
  assertCan(actor, "records:read");
  const visible = await prisma().campaign.findMany({
    where: { id: { in: campaignIds }, ...visibleCampaignWhere(actor) },
    select: { id: true },
  });
  const rows = await queryProgressCounts(visible.map(({ id }) => id));
  const isAnnotator = !canSeeGoldAnswers(actor);
  const entries = await Promise.all(
    visible.map(async ({ id }): Promise<[string, CampaignListProgress]> => {
      const counts = sumProgressCounts(rows.filter((row) => row.campaignId === id));
      const seen = isAnnotator
        ? await annotatorGold({ actor, campaignId: id }).then(({ own, ahead }) => asSeenByAnnotator(counts, own, ahead))
        : counts;
      const { byLanguage: _, ...totals } = seen;
      return [id, totals];
    }),
  );
  return new Map(entries);
}
