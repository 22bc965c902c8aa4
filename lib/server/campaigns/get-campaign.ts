import "server-only";

import type { CampaignSummary } from "@/lib/campaigns/types";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor } from "@/lib/server/auth/permissions";
import { visibleCampaignWhere } from "@/lib/server/auth/visibility";
import { asSeenBy, findCampaignSummary } from "@/lib/server/campaigns/queries";

/** One campaign, scoped like listCampaigns (an annotator without a shared language gets NOT_FOUND). */
export async function getCampaign({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<CampaignSummary> {
  assertCan(actor, "records:read");
  return asSeenBy(actor, await findCampaignSummary({ id: campaignId, ...visibleCampaignWhere(actor) }));
}
