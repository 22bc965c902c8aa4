import "server-only";

import type { CampaignSummary } from "@/lib/campaigns/types";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { prisma } from "@/lib/server/db/client";
import { visibleCampaignWhere } from "@/lib/server/auth/visibility";
import { campaignSelect, toSummary, asSeenBy } from "@/lib/server/campaigns/queries";

/** One campaign, scoped like listCampaigns (an annotator without a shared language gets NOT_FOUND). */
export async function getCampaign({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<CampaignSummary> {
  assertCan(actor, "records:read");
  const row = await prisma().campaign.findFirst({
    where: { id: campaignId, ...visibleCampaignWhere(actor) },
    select: campaignSelect,
  });
  if (!row) throw new AppError("NOT_FOUND", "No such campaign.");
  return asSeenBy(actor, toSummary(row));
}
