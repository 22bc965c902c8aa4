"use server";

import { createAction } from "@/lib/server/action";
import { addComment, markCommentsRead } from "@/lib/server/comments/comments";
import { commentSchema, commentThreadSchema } from "@/lib/validation/comments";

/** Adds a comment to an item the actor may see. Scope: comments:write. */
export const addCommentAction = createAction("comments:write", commentSchema, async ({ input, actor }) =>
  addComment({ actor, itemId: input.itemId, body: input.body }),
);

/** Marks an item's thread read for the actor. Scope: comments:write. */
export const markCommentsReadAction = createAction("comments:write", commentThreadSchema, async ({ input, actor }) => {
  await markCommentsRead({ actor, itemId: input.itemId, seenUpTo: new Date(input.seenUpTo) });
  return null;
});
