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

export const commentThreadSchema = z.object({ itemId: z.string().min(1) });
