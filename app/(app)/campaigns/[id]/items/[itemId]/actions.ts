"use server";

import { createAction } from "@/lib/server/action";
import {
  type LabelAndNext,
  skipItemAndClaimNext,
  submitAnnotationAndClaimNext,
} from "@/lib/server/labelling/next-item";
import { renewLease } from "@/lib/server/labelling/renew-lease";
import { itemIdSchema, labelItemSchema, skipItemSchema } from "@/lib/validation/campaigns";

// The workspace's writes. Each calls the function its REST twin calls (items/{id}/annotations,
// /skip, /lease); a label or a skip also claims the next item, so the browser
// moves on in one request.

/** Where the workspace goes next: the claimed item, or /next, which says why there is none. */
function nextUrl(campaignId: string, next: LabelAndNext["next"]): string {
  return next ? `/campaigns/${campaignId}/items/${next.itemId}` : `/campaigns/${campaignId}/next`;
}

/**
 * Saves (or revises) the actor's label on an item they hold or held, then claims their next item;
 * after a first label on a blind item nothing is claimed and nextUrl is null (the critic is shown
 * on the same item first). Scope: labels:write.
 */
export const submitLabelAction = createAction(
  "labels:write",
  labelItemSchema,
  async ({ input: { itemId, ...label }, actor }) => {
    const result = await submitAnnotationAndClaimNext({ actor, itemId, input: label });
    return {
      revision: result.annotation.revision,
      isCriticRevealed: result.isCriticRevealed,
      nextUrl: result.isCriticRevealed ? null : nextUrl(result.campaignId, result.next),
    };
  },
);

/** Skips the actor's item with a reason and claims their next one. Scope: labels:write. */
export const skipItemAction = createAction("labels:write", skipItemSchema, async ({ input, actor }) => {
  const result = await skipItemAndClaimNext({ actor, itemId: input.itemId, reason: input.reason });
  return { nextUrl: nextUrl(result.campaignId, result.next) };
});

/** Extends the actor's lease on an item they hold. Scope: labels:write. */
export const renewLeaseAction = createAction("labels:write", itemIdSchema, async ({ input, actor }) => ({
  leaseExpiresAt: (await renewLease({ actor, itemId: input.itemId })).toISOString(),
}));
