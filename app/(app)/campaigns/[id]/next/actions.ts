"use server";

import { createAction } from "@/lib/server/action";
import { withOthersMessage } from "@/lib/campaigns/with-others";
import { claimNextItemWithRetry } from "@/lib/server/labelling/next-item";
import { findItemsWithOthers } from "@/lib/server/labelling/find-items-with-others";
import { campaignIdSchema } from "@/lib/validation/campaigns";

/**
 * Claims the actor's next item in a campaign (or returns the one they hold); otherwise says that
 * the items left for them are with other annotators, or null when nothing is left for them. The "Start / next item" button's write: a GET of /next claims only when the user
 * navigated there from the app. Scope: labels:write.
 */
export const claimNextItemAction = createAction("labels:write", campaignIdSchema, async ({ input, actor }) => {
  const claim = await claimNextItemWithRetry({ actor, campaignId: input.campaignId });
  if (claim) return { itemUrl: `/campaigns/${input.campaignId}/items/${claim.itemId}` };
  const withOthers = await findItemsWithOthers({ actor, campaignId: input.campaignId });
  return withOthers ? { withOthers: withOthersMessage(withOthers.items) } : null;
});
