import "server-only";

import type { CampaignSummary } from "@/lib/campaigns/types";
import { assertCan } from "@/lib/server/auth/guard";
import { type SystemActor } from "@/lib/server/auth/permissions";
import { findCampaignSummary } from "@/lib/server/campaigns/queries";

/** Any campaign, for the system actor (the operator CLI), which sees them all. Scope: records:read. */
export async function getCampaignForSystem({
  actor,
  campaignId,
}: {
  actor: SystemActor;
  campaignId: string;
}): Promise<CampaignSummary> {
  assertCan(actor, "records:read");
  return findCampaignSummary({ id: campaignId });
}
