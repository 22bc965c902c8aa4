// The data calls of the review pages, as the pages in app/(app)/campaigns make them: what
// bench:review and bench:agreement time.
import type { Actor } from "@/lib/server/auth/permissions";
import { getCampaignAgreement } from "@/lib/server/db/agreement";
import { getCampaign, getCampaignProgress, listCampaigns, listCategories } from "@/lib/server/db/campaigns";
import { getReviewItem, listReviewQueue } from "@/lib/server/db/review";

/** /campaigns/{id}/review: the queue, its counts, the categories and the annotator drop-down. */
export async function reviewQueuePage(actor: Actor, campaignId: string) {
  await getCampaign({ actor, campaignId });
  const [queue] = await Promise.all([
    listReviewQueue({ actor, campaignId, filters: {} }),
    listCategories({ campaignId }),
    getCampaignAgreement({ actor, campaignId }),
  ]);
  return queue.items.length;
}

/** Items of the queue to open on the adjudication page. */
export async function queueSample(actor: Actor, campaignId: string, count: number): Promise<string[]> {
  const { items } = await listReviewQueue({ actor, campaignId, filters: {} });
  const step = Math.max(1, Math.floor(items.length / count));
  return items.filter((_, index) => index % step === 0).map((item) => item.itemId);
}

/** /campaigns/{id}/review/{itemId}: the item, the categories, and its place in the queue with previous and next. */
export async function adjudicationPage(actor: Actor, campaignId: string, itemId: string) {
  const [, , , queue] = await Promise.all([
    getCampaign({ actor, campaignId }),
    getReviewItem({ actor, itemId }),
    listCategories({ campaignId }),
    listReviewQueue({ actor, campaignId, filters: {} }),
  ]);
  return queue.items.findIndex((entry) => entry.itemId === itemId);
}

/** /campaigns/{id}/agreement. */
export async function agreementPage(actor: Actor, campaignId: string) {
  await Promise.all([getCampaign({ actor, campaignId }), getCampaignAgreement({ actor, campaignId })]);
}

/** /campaigns: every campaign with its progress. */
export async function campaignListPage(actor: Actor) {
  const campaigns = await listCampaigns({ actor });
  return Promise.all(
    campaigns.map(async (campaign) => ({
      ...campaign,
      progress: await getCampaignProgress({ actor, campaignId: campaign.id }),
    })),
  );
}
