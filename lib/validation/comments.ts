import { z } from "zod";
import { storableText } from "./text";

export const COMMENT_MAX_LENGTH = 5000;

/** A comment on an item, from the thread's form. */
export const commentSchema = z.object({
  itemId: z.string().min(1),
  body: storableText()
    .trim()
    .min(1, "Write something first.")
    .max(COMMENT_MAX_LENGTH, `Keep it under ${COMMENT_MAX_LENGTH} characters.`),
});

export const commentThreadSchema = z.object({
  itemId: z.string().min(1),
  /** The newest comment's time on the page that marks the thread read. */
  seenUpTo: z.iso.datetime(),
});

/** An item's thread as `GET /api/v1/items/{id}/comments` answers it. */
export const commentThreadResponseSchema = z.object({
  comments: z.array(
    z.object({
      id: z.string(),
      author: z.string(),
      body: z.string(),
      createdAt: z.iso.datetime(),
      isMine: z.boolean(),
      isUnread: z.boolean(),
    }),
  ),
  unread: z.number().int().min(0),
  /** True while other annotators' comments are held back (the caller has not labelled the item yet). */
  isHoldingBack: z.boolean(),
});
