// Campaigns as a benchmark needs them: with their items. Over more than RECORDS_DRAWN_IN_REQUEST
// records createCampaign answers before the items exist and queues their draw for a worker; a
// benchmark runs no worker (and a queued job would keep its process from exiting), so here the
// campaign is inserted and its items drawn in this process, as createCampaign and the worker would.
import type { insertCampaign } from "@/lib/server/campaigns/insert-campaign";

/** A new campaign with its items (insertCampaign, then drawCampaignItems when it is large). */
export async function createCampaignWithItems(
  args: Parameters<typeof insertCampaign>[0],
): ReturnType<typeof insertCampaign> {
  const { insertCampaign } = await import("@/lib/server/campaigns/insert-campaign");
  const { drawCampaignItems } = await import("@/lib/server/campaigns/draw-items");
  const campaign = await insertCampaign(args);
  if (campaign.itemDraw) await drawCampaignItems({ campaignId: campaign.id });
  return campaign;
}
