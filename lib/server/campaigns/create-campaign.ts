import "server-only";

import type { CampaignSummary } from "@/lib/campaigns/types";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import type { CreateCampaignInput } from "@/lib/validation/campaigns";
import { queueItemDraw } from "@/lib/server/campaigns/draw-queue";
import { insertCampaign } from "@/lib/server/campaigns/insert-campaign";

/**
 * Creates a campaign over a dataset (insertCampaign: its seeded stratified sample and taxonomy). A
 * sample drawn from more than RECORDS_DRAWN_IN_REQUEST records is not inserted inside the request:
 * the campaign answers with a RUNNING `itemDraw` and no items, and a worker draws them
 * (draw-items.ts, the same items the request would have inserted). Scope: campaigns:admin.
 */
export async function createCampaign({
  actor,
  input,
}: {
  actor: Actor | SystemActor;
  input: CreateCampaignInput;
}): Promise<CampaignSummary & { seed: string }> {
  assertCan(actor, "campaigns:admin");
  const campaign = await insertCampaign({ actor, input });
  if (campaign.itemDraw) await queueItemDraw(actor, { campaignId: campaign.id });
  return campaign;
}
