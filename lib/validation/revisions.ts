import { z } from "zod";

import { REVISABLE_FIELDS } from "@/lib/revisions/fields";

import { singleLineText, storableText } from "./text";
import { verdictFields } from "./verdict";

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
  valid: verdictFields.valid,
  categories: z.array(singleLineText().max(41)).max(40).default([]),
  note: storableText().trim().max(10_000).optional(),
});
export type RevisionCheck = z.infer<typeof revisionCheckSchema>;

/** The check page's form: the revision and the check of it. */
export const checkRevisionSchema = revisionCheckSchema.extend({ revisionId: z.string().min(1).max(40) });

/** Query of GET /api/v1/repairs: the repairs queue, a page at a time. */
export const repairsQuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^c[a-z0-9]{8,40}$/, "A cursor is the nextCursor of the previous page.")
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

// What the revision and repairs routes answer (the API catalog's response schemas; route tests parse
// every answer with them). Timestamps travel as ISO strings.

const revisableField = z.enum(REVISABLE_FIELDS);
const outcome = z.string().nullable();
const revisionEvidence = z.strictObject({
  demoOutcome: outcome,
  fullOutcome: outcome,
  executableValid: z.boolean().nullable(),
});
const revisionContent = z.strictObject({
  question: z.string(),
  canonical_solution: z.string(),
  demo_test_func: z.string(),
  full_test_func: z.string(),
});

/**
 * `GET /api/v1/records/{id}/revisions`: author, reason and categories are null while hidden; before
 * the reader's first label on an item of a blind campaign (areJudgementsHidden) so are other people's
 * checks, and their rejected repairs are left out.
 */
export const revisionListResponseSchema = z.strictObject({
  current: z.number().int().min(1),
  areJudgementsHidden: z.boolean(),
  revisions: z.array(
    z.strictObject({
      id: z.string().nullable(),
      number: z.number().int().min(1),
      status: z.enum(["ORIGINAL", "PROPOSED", "ACCEPTED", "REJECTED"]),
      baseNumber: z.number().int().nullable(),
      changedFields: z.array(revisableField),
      diffs: z.array(z.strictObject({ field: revisableField, diff: z.string() })),
      author: z.string().nullable(),
      reason: z.string().nullable(),
      categories: z.array(z.string()).nullable(),
      isRationaleHidden: z.boolean(),
      evidence: revisionEvidence,
      check: z
        .strictObject({
          valid: z.boolean(),
          categories: z.array(z.string()),
          note: z.string().nullable(),
          checker: z.string().nullable(),
          checkedAt: z.iso.datetime(),
        })
        .nullable(),
      createdAt: z.iso.datetime(),
    }),
  ),
});

/** `POST /api/v1/records/{id}/revisions` (201): the revision and the evidence recomputed on it. */
export const proposedRevisionResponseSchema = z.strictObject({
  id: z.string(),
  recordId: z.number().int(),
  number: z.number().int().min(2),
  changedFields: z.array(revisableField),
  evidence: z.strictObject({
    demoOutcome: z.string(),
    fullOutcome: z.string(),
    backend: z.string().nullable(),
    toolchain: z.string().nullable(),
  }),
});

/** `GET /api/v1/repairs`: no author, reason or category (the check is blind). */
export const repairQueueResponseSchema = z.strictObject({
  repairs: z.array(
    z.strictObject({
      id: z.string(),
      recordId: z.number().int(),
      number: z.number().int(),
      language: z.string(),
      dataset: z.string(),
      title: z.string(),
      createdAt: z.iso.datetime(),
    }),
  ),
  nextCursor: z.string().nullable(),
});

/** `GET /api/v1/revisions/{id}`: the revised record as its checker sees it, nothing of its author. */
export const revisionToCheckResponseSchema = z.strictObject({
  id: z.string(),
  recordId: z.number().int(),
  number: z.number().int(),
  language: z.string(),
  dataset: z.string(),
  content: revisionContent,
  evidence: revisionEvidence,
});

/** `POST /api/v1/revisions/{id}/check`. */
export const revisionCheckResponseSchema = z.strictObject({
  id: z.string(),
  recordId: z.number().int(),
  number: z.number().int(),
  status: z.enum(["ACCEPTED", "REJECTED"]),
});
