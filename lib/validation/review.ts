import { z } from "zod";

import { LANGUAGES } from "@/lib/records/languages";

import { MAX_INT4 } from "./records";
import { singleLineText, storableText } from "./text";

/** Body of POST /api/v1/items/{id}/adjudication. */
export const adjudicationSchema = z.object({
  valid: z.boolean(),
  categories: z.array(singleLineText().max(41)).max(40).default([]),
  reason: storableText().trim().min(1, "Give the reason for the decision.").max(10_000),
  // The revision the reviewer saw; needed to revise an existing decision (409 otherwise).
  baseRevision: z.number().int().min(1).max(MAX_INT4).optional(),
});

/** Query of GET /api/v1/campaigns/{id}/disagreements and the review page. */
export const queueQuerySchema = z.object({
  queue: z.enum(["annotators", "critic", "execution", "flagged"]).optional(),
  language: z.enum(LANGUAGES).optional(),
  annotator: singleLineText().max(100).optional(),
  category: singleLineText().max(41).optional(),
  // Where the page starts (the last row of the previous page): "reasons.position".
  cursor: z
    .string()
    .regex(/^\d{1,2}\.\d{1,10}$/, "A cursor is the nextCursor of the previous page.")
    .optional(),
});
