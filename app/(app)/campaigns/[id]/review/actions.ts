"use server";

import { createAction } from "@/lib/server/action";
import { adjudicateItem } from "@/lib/server/review/review";
import { decideItemSchema } from "@/lib/validation/review";

/** Records or revises the reviewer's decision on an item (baseRevision = the revision on screen). Scope: reviews:write. */
export const adjudicateAction = createAction(
  "reviews:write",
  decideItemSchema,
  async ({ input: { itemId, ...decision }, actor }) => {
    const result = await adjudicateItem({ actor, itemId, input: decision });
    return { revision: result.revision };
  },
);
