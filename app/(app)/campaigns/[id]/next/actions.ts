"use server";

import { createAction } from "@/lib/server/action";
import { claimNextItemWithRetry } from "@/lib/server/labelling/next-item";
import { campaignIdSchema } from "@/lib/validation/campaigns";

/**
 * Claims the actor's next item in a campaign (or returns the one they hold); null when nothing is
 * left for them. The "Start / next item" button's write: a GET of /next claims only when the user
 * navigated there from the app. Scope: labels:write.
 */
export const claimNextItemAction = createAction("labels:write", campaignIdSchema, async ({ input, actor }) => {
  const claim = await claimNextItemWithRetry({ actor, campaignId: input.campaignId });
  return claim ? { itemUrl: `/campaigns/${input.campaignId}/items/${claim.itemId}` } : null;
});
