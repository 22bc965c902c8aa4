import { z } from "zod";

import { REVISABLE_FIELDS } from "@/lib/revisions/fields";

import { singleLineText, storableText } from "./text";

const MAX_FIELD = 1024 * 1024;
const field = () => storableText().max(MAX_FIELD, "At most 1 MB of text.").optional();

/** Body of POST /api/v1/records/{id}/revisions and the revision editor's form: changed fields, reason, categories. */
export const revisionProposalSchema = z
  .object({
    question: field(),
    canonical_solution: field(),
    demo_test_func: field(),
    full_test_func: field(),
    reason: storableText().trim().min(1, "Say what the revision fixes.").max(10_000),
    categories: z.array(singleLineText().max(41)).min(1, "Pick the error categories the revision fixes.").max(20),
    // The revision the author edited; a proposal on content that changed since is refused (409).
    baseRevision: z.number().int().min(1).max(2_147_483_647).optional(),
  })
  .refine((body) => REVISABLE_FIELDS.some((name) => body[name] !== undefined), {
    message: "Change at least one of the statement, the solution, the demo test or the full test.",
    path: ["question"],
  });
export type RevisionProposal = z.infer<typeof revisionProposalSchema>;

/** Body of POST /api/v1/revisions/{id}/check: the blind second check's label on the revised record. */
export const revisionCheckSchema = z.object({
  valid: z.boolean(),
  categories: z.array(singleLineText().max(41)).max(40).default([]),
  note: storableText().trim().max(10_000).optional(),
});
export type RevisionCheck = z.infer<typeof revisionCheckSchema>;

/** Query of GET /api/v1/repairs: the repairs queue, a page at a time. */
export const repairsQuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^c[a-z0-9]{8,40}$/, "A cursor is the nextCursor of the previous page.")
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
