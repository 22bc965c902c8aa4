// The data calls of the review pages, as the pages in app/(app)/campaigns make them: what
// bench:review and bench:agreement time.
import type { Actor } from "@/lib/server/auth/permissions";
import { getCampaignAgreement, readCampaignAgreement } from "@/lib/server/review/agreement";
import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { listCampaignProgress } from "@/lib/server/campaigns/list-campaign-progress";
import { listCampaigns } from "@/lib/server/campaigns/list-campaigns";
import { listCategories } from "@/lib/server/campaigns/list-categories";
import { getQueueNeighbours, getReviewItem, listCampaignAnnotators, listReviewQueue } from "@/lib/server/review/review";

/** /campaigns/{id}/review: the first page of the queue, its counts, the categories and the annotator drop-down. */
export async function reviewQueuePage(actor: Actor, campaignId: string) {
  await getCampaign({ actor, campaignId });
  const [queue] = await Promise.all([
    listReviewQueue({ actor, campaignId, filters: {} }),
    listCategories({ actor, campaignId }),
    listCampaignAnnotators({ actor, campaignId }),
  ]);
  return queue.items.length;
}

/** The cursor after the first `rows` rows of the queue: where a page deep in it starts. */
export async function queuePageCursor(actor: Actor, campaignId: string, rows: number) {
  return (await listReviewQueue({ actor, campaignId, filters: {}, limit: rows })).nextCursor;
}

/** /campaigns/{id}/review?cursor=…: a page deep in the queue. */
export async function laterQueuePage(
  actor: Actor,
  campaignId: string,
  cursor: Awaited<ReturnType<typeof queuePageCursor>>,
) {
  await getCampaign({ actor, campaignId });
  const [queue] = await Promise.all([
    listReviewQueue({ actor, campaignId, filters: {}, cursor }),
    listCategories({ actor, campaignId }),
    listCampaignAnnotators({ actor, campaignId }),
  ]);
  return queue.items.length;
}

/** Items of the queue to open on the adjudication page, spread over its first pages. */
export async function queueSample(actor: Actor, campaignId: string, count: number): Promise<string[]> {
  const { items } = await listReviewQueue({ actor, campaignId, filters: {}, limit: 1000 });
  const step = Math.max(1, Math.floor(items.length / count));
  return items.filter((_, index) => index % step === 0).map((item) => item.itemId);
}

/** /campaigns/{id}/review/{itemId}: the item, the categories, and its place in the queue with previous and next. */
export async function adjudicationPage(actor: Actor, campaignId: string, itemId: string) {
  const [, , , queue] = await Promise.all([
    getCampaign({ actor, campaignId }),
    getReviewItem({ actor, itemId }),
    listCategories({ actor, campaignId }),
    getQueueNeighbours({ actor, campaignId, itemId, filters: {} }),
  ]);
  return queue.position;
}

/** /campaigns/{id}/agreement: the kept counts with the signal table (recounted in the background when behind) and what else the page reads. */
export async function agreementPage(actor: Actor, campaignId: string) {
  const [, agreement] = await Promise.all([
    getCampaign({ actor, campaignId }),
    readCampaignAgreement({ actor, campaignId }),
    listCategories({ actor, campaignId }),
  ]);
  return agreement;
}

/** GET /api/v1/campaigns/{id}/agreement's figures: counted first when anything changed. */
export async function exactAgreement(actor: Actor, campaignId: string) {
  return getCampaignAgreement({ actor, campaignId });
}

/** /campaigns: every campaign with its progress. */
export async function campaignListPage(actor: Actor) {
  const campaigns = await listCampaigns({ actor });
  const progress = await listCampaignProgress({ actor, campaignIds: campaigns.map((campaign) => campaign.id) });
  return campaigns.map((campaign) => ({ ...campaign, progress: progress.get(campaign.id) }));
}
