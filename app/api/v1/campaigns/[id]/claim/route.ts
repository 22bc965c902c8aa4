import { withOthersMessage } from "@/lib/campaigns/with-others";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { findItemsWithOthers } from "@/lib/server/labelling/find-items-with-others";
import { getClaimedRecord } from "@/lib/server/labelling/get-claimed-record";
import { answer, apiRoute, readOptionalJson } from "@/lib/server/http";
import { claimRequestSchema } from "@/lib/validation/campaigns";

/**
 * POST /api/v1/campaigns/{id}/claim, with an optional body {client} naming the calling client (each
 * named client holds its own lease; 409 past MAX_CLIENT_LEASES running ones) → 200 {item: {id},
 * record, leaseExpiresAt}; 200 {item: null, withOthers, nextLeaseEndsAt, message} when the only
 * items left for the caller are leased by others (they come back if a lease runs out); 204 when
 * nothing is left for the caller.
 */
export const POST = apiRoute<{ id: string }>("labels:write", async ({ request, actor, params }) => {
  const { client } = claimRequestSchema.parse((await readOptionalJson(request)) ?? {});
  const claim = await claimNextItem({ actor, campaignId: params.id, client });
  if (!claim) {
    const withOthers = await findItemsWithOthers({ actor, campaignId: params.id });
    if (!withOthers) return new Response(null, { status: 204 });
    return answer("POST /campaigns/{id}/claim", {
      item: null,
      withOthers: withOthers.items,
      nextLeaseEndsAt: withOthers.nextLeaseEndsAt,
      message: withOthersMessage(withOthers.items),
    });
  }
  const claimed = await getClaimedRecord({ actor, itemId: claim.itemId });
  // The label is the annotator's own: the claim carries no verification figure or evidence flag
  // (the workspace shows them as the campaign's visibility allows).
  const { executableValid: _executableValid, flaky: _flaky, ...record } = claimed.record;
  return answer("POST /campaigns/{id}/claim", {
    item: { id: claim.itemId, campaignId: params.id },
    record,
    leaseExpiresAt: claim.leaseExpiresAt,
    categories: claimed.categories,
  });
});
