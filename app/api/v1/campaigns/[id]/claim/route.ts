import { claimNextItem, getWorkItem } from "@/lib/server/labelling/queue";
import { apiRoute } from "@/lib/server/http";

/** POST /api/v1/campaigns/{id}/claim → 200 {item: {id}, record, leaseExpiresAt}, or 204 when nothing is left for the caller. */
export const POST = apiRoute<{ id: string }>("labels:write", async ({ actor, params }) => {
  const claim = await claimNextItem({ actor, campaignId: params.id });
  if (!claim) return new Response(null, { status: 204 });
  const work = await getWorkItem({ actor, itemId: claim.itemId });
  const { executableValid: _executableValid, ...record } = work.record;
  return Response.json({
    item: { id: claim.itemId, campaignId: params.id },
    record,
    leaseExpiresAt: claim.leaseExpiresAt,
    categories: work.campaign.categories,
  });
});
