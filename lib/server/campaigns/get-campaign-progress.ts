import "server-only";

import type { CampaignProgress } from "@/lib/campaigns/types";
import { type Actor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { forecastGold, ownGoldItems } from "@/lib/server/labelling/gold-queue";
import { canSeeGoldAnswers } from "@/lib/server/auth/visibility";
import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import {
  sumProgressCounts,
  asSeenByAnnotator,
  countAvailableSample,
  queryProgressCounts,
} from "@/lib/server/campaigns/queries";

/**
 * Progress of a campaign overall, per language, and for the actor. Gold items never count in the
 * figures admins and reviewers see. An annotator sees the campaign as if their own gold items were
 * sample items (asSeenByAnnotator), so no count moves differently after a gold item. Scope:
 * records:read (campaign visible to the actor).
 */
export async function getCampaignProgress({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<CampaignProgress> {
  await getCampaign({ actor, campaignId });
  const [byLanguageRows, mineRows, activeLeases, sampleLeft] = await Promise.all([
    queryProgressCounts([campaignId]),
    prisma().assignment.groupBy({
      by: ["status"],
      where: { userId: actor.id, item: { campaignId } },
      _count: { _all: true },
    }),
    prisma().assignment.count({
      where: { status: "ACTIVE", leaseExpiresAt: { gt: new Date() }, item: { campaignId } },
    }),
    countAvailableSample({ actor, campaignId }),
  ]);
  const gold = await forecastGold({ actor, campaignId, sampleLeft });
  const mineCount = (status: string) => mineRows.find((row) => row.status === status)?._count._all ?? 0;
  const progress: CampaignProgress = {
    ...sumProgressCounts(byLanguageRows),
    activeLeases,
    mine: {
      submitted: mineCount("SUBMITTED"),
      skipped: mineCount("SKIPPED"),
      active: mineCount("ACTIVE"),
      // What the queue will still hand out: the sample items left for them, and the gold items it
      // will mix in before those run out.
      available: sampleLeft + gold.count,
    },
  };
  return canSeeGoldAnswers(actor)
    ? progress
    : asSeenByAnnotator(progress, await ownGoldItems({ actor, campaignId }), gold);
}
