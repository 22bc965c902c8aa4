import { z } from "zod";

import { SAMPLING_MODES, suspicionOrderRefusal } from "@/lib/evidence/suspicion";
import { PRE_LABEL_VISIBILITIES, visibilityFromInput } from "@/lib/evidence/visibility";

import type { CampaignStatus as PrismaCampaignStatus } from "@/lib/generated/prisma/enums";
import { LANGUAGES } from "@/lib/records/languages";

import { goldShareSchema } from "./gold";
import { MAX_INT4, workRecordResponseSchema } from "./records";
import { firstRepeated, singleLineText, storableText } from "./text";
import { CATEGORY_NEEDED, namesACategory, verdictFields } from "./verdict";

export const FINAL_RULES = ["consensus", "majority", "strict"] as const;

const categorySchema = z.object({
  key: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]{0,40}$/, "Use lowercase letters, digits and dashes."),
  label: singleLineText().trim().min(1, "Give each category a label.").max(60, "Keep each label to 60 characters."),
  description: storableText().trim().max(300, "Keep each description to 300 characters.").default(""),
  invalidating: z.boolean(),
  criticRule: singleLineText().trim().max(80, "Keep each critic rule to 80 characters.").nullable().default(null),
});

/** Body of POST /api/v1/campaigns and the admin's campaign form. */
export const createCampaignSchema = z
  .object({
    dataset: storableText().trim().min(1, "Choose a dataset."),
    name: singleLineText().trim().min(1, "Give the campaign a name.").max(100, "Keep the name to 100 characters."),
    languages: z.array(z.enum(LANGUAGES)).min(1, "Choose at least one language.").optional(),
    perLanguage: z
      .number({ error: "A whole number from 1, or empty for all." })
      .int("A whole number from 1, or empty for all.")
      .min(1, "A whole number from 1, or empty for all.")
      .max(1_000_000, "At most 1,000,000 per language.")
      .nullable()
      .optional(),
    // Scripts often pass a seed as a number; both forms name the same sample ("42" and 42).
    seed: z
      .union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string()], {
        error: "A whole number or a text of 1–100 characters.",
      })
      .transform(String)
      .pipe(singleLineText().trim().min(1).max(100))
      .optional(),
    overlap: z
      .number({ error: "A whole number from 1 to 10." })
      .int("A whole number from 1 to 10.")
      .min(1, "A whole number from 1 to 10.")
      .max(10, "A whole number from 1 to 10.")
      .default(1),
    agreementFraction: z
      .number({ error: "A fraction from 0 to 1." })
      .min(0, "A fraction from 0 to 1.")
      .max(1, "A fraction from 0 to 1.")
      .default(0),
    blind: z.boolean().default(false),
    /** What annotators see before their first label; without it, `blind` decides (all but the critic, or all). */
    visibility: z.enum(PRE_LABEL_VISIBILITIES).optional(),
    /** random: a seeded sample whose labels estimate validity; suspicion: the most suspicious records first, for cleaning. */
    sampling: z.enum(SAMPLING_MODES).optional(),
    finalRule: z.enum(FINAL_RULES).default("consensus"),
    leaseMinutes: z
      .number({ error: "Minutes from 1 to 1440 (a day)." })
      .int("Minutes from 1 to 1440 (a day).")
      .min(1, "Minutes from 1 to 1440 (a day).")
      .max(24 * 60, "Minutes from 1 to 1440 (a day).")
      .default(30),
    categories: z
      .array(categorySchema)
      .min(1, "Keep at least one error category.")
      .max(40, "At most 40 error categories.")
      .superRefine((categories, context) => {
        const repeated = firstRepeated(categories.map((category) => category.key));
        if (repeated)
          context.addIssue({
            code: "custom",
            message: `The category key "${repeated}" appears twice; keys must differ.`,
          });
      })
      .optional(),
    guidelines: storableText().max(20_000).optional(),
    requireInvalidNote: z.boolean().optional(),
    goldShare: goldShareSchema.optional(),
  })
  // A suspicion order may use only what the campaign shows before the first label (suspicionOrderRefusal).
  .superRefine((input, context) => {
    const refusal = input.sampling === "suspicion" ? suspicionOrderRefusal(visibilityFromInput(input)) : null;
    if (refusal) context.addIssue({ code: "custom", path: ["sampling"], message: refusal });
  });

export type CreateCampaignInput = z.infer<typeof createCampaignSchema>;
/** What the campaign form sends, before parsing. */
export type CreateCampaignFields = z.input<typeof createCampaignSchema>;

/** Body of POST /api/v1/campaigns/{id}/items: the new sample size per language (null: all) and, optionally, more languages. */
export const extendCampaignSchema = z.object({
  perLanguage: z.number().int().min(1).max(1_000_000).nullable(),
  languages: z.array(z.enum(LANGUAGES)).min(1).optional(),
});

export type ExtendCampaignInput = z.infer<typeof extendCampaignSchema>;

/** The campaign page's form for adding records: the campaign and the new sample size. */
export const extendCampaignActionSchema = extendCampaignSchema.extend({ campaignId: z.string().min(1).max(40) });

/** A campaign's guidelines and note rule, which an admin may change at any time from the campaign page. */
export const campaignGuidelinesSchema = z.object({
  campaignId: z.string().min(1).max(40),
  guidelines: storableText().max(20_000, "Keep the guidelines under 20,000 characters."),
  requireInvalidNote: z.boolean(),
});

export type CampaignGuidelinesInput = z.infer<typeof campaignGuidelinesSchema>;

/** Body of PATCH /api/v1/campaigns/{id}: what may change after creation (overlap only until labels exist). */
const campaignSettingsFields = z.object({
  name: createCampaignSchema.shape.name.optional(),
  overlap: z.number().int().min(1).max(10).optional(),
  goldShare: goldShareSchema.optional(),
  /** What annotators see before their first label; only until an item is claimed. */
  visibility: z.enum(PRE_LABEL_VISIBILITIES).optional(),
});
const changesSomething = (body: { name?: string; overlap?: number; goldShare?: number; visibility?: string }) =>
  body.name !== undefined ||
  body.overlap !== undefined ||
  body.goldShare !== undefined ||
  body.visibility !== undefined;
const NOTHING_TO_CHANGE = "Give a name, an overlap, a gold share or a visibility to change.";
export const campaignSettingsSchema = campaignSettingsFields.refine(changesSomething, { message: NOTHING_TO_CHANGE });

/** The campaign page's settings form. */
export const campaignSettingsActionSchema = campaignSettingsFields
  .extend({ campaignId: z.string().min(1) })
  .refine(changesSomething, { message: NOTHING_TO_CHANGE });

export type CampaignSettingsInput = z.infer<typeof campaignSettingsSchema>;

/** The campaign page's taxonomy order: every category key of the campaign, in the new order. */
export const reorderCategoriesSchema = z.object({
  campaignId: z.string().min(1).max(40),
  keys: z.array(z.string().max(41)).min(1).max(40),
});

/**
 * A campaign's status, as the schema's enum spells it (kept here so components need not import
 * Prisma), less DELETING: a campaign marked for deletion is shown to nobody (visibleCampaignWhere).
 */
export type CampaignStatus = "ACTIVE" | "PAUSED" | "CLOSED" | "ARCHIVED";
// Fails to compile when the schema's enum gains or loses a status.
const _sameAsSchema: [CampaignStatus] extends [Exclude<PrismaCampaignStatus, "DELETING">]
  ? [Exclude<PrismaCampaignStatus, "DELETING">] extends [CampaignStatus]
    ? true
    : never
  : never = true;

const CAMPAIGN_STATUS_ACTIONS = ["pause", "resume", "close", "reopen", "archive", "unarchive"] as const;
export type CampaignStatusAction = (typeof CAMPAIGN_STATUS_ACTIONS)[number];

/** Body of POST /api/v1/campaigns/{id}/status. */
export const campaignStatusSchema = z.object({ action: z.enum(CAMPAIGN_STATUS_ACTIONS) });

export const campaignIdSchema = z.object({ campaignId: z.string().min(1) });

/** The campaign page's status buttons: the campaign and what to do with it. */
export const campaignStatusActionSchema = campaignStatusSchema.extend(campaignIdSchema.shape);

/** Body of POST /api/v1/items/{id}/annotations. */
export const annotationSchema = z
  .object({
    ...verdictFields,
    note: storableText()
      .max(10_000)
      .optional()
      .transform((value) => value?.trim() || null),
    testLine: z
      .number({ error: "A line number from 1." })
      .int("A line number from 1.")
      .min(1, "A line number from 1.")
      .max(1_000_000)
      .nullable()
      .optional(),
    needsReview: z.boolean().default(false),
    activeMs: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600 * 1000)
      .default(0),
    // The revision the form was loaded at; a mismatch means someone (another tab) changed it: 409.
    baseRevision: z.number().int().min(0).max(MAX_INT4).optional(),
  })
  // Whether an invalid label also needs a note is the campaign's choice (requireInvalidNote), checked on submit.
  .refine(namesACategory, CATEGORY_NEEDED);

export type AnnotationInput = z.infer<typeof annotationSchema>;

export const skipSchema = z.object({ reason: storableText().trim().min(1, "Say why you skip it.").max(500) });

/** The item a workspace action works on. */
export const itemIdSchema = z.object({ itemId: z.string().min(1).max(100) });

/** The workspace's label action: a label on the item, and the next item claimed. */
export const labelItemSchema = annotationSchema.extend(itemIdSchema.shape);

/** The workspace's skip action: the item and the reason, and the next item claimed. */
export const skipItemSchema = skipSchema.extend(itemIdSchema.shape);

// What the /api/v1 campaign and labelling routes answer (the API catalog's response schemas; route
// tests parse every answer with them). Timestamps travel as ISO strings.

const CAMPAIGN_STATUSES = ["ACTIVE", "PAUSED", "CLOSED", "ARCHIVED"] as const satisfies readonly CampaignStatus[];

/**
 * A campaign as its reader may see it. `seed` and `goldShare` are left out for annotators (with the
 * seed and the record keys they could tell sample items from gold).
 */
export const campaignResponseSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  dataset: z.string(),
  languages: z.array(z.string()),
  perLanguage: z.number().int().nullable(),
  seed: z.string().optional(),
  overlap: z.number().int(),
  agreementFraction: z.number(),
  blind: z.boolean(),
  /** What annotators see before their first label: nothing, execution, all-but-critic or all. */
  visibility: z.enum(PRE_LABEL_VISIBILITIES),
  sampling: z.enum(SAMPLING_MODES),
  finalRule: z.enum(FINAL_RULES),
  leaseMinutes: z.number().int(),
  guidelines: z.string(),
  requireInvalidNote: z.boolean(),
  goldShare: z.number().optional(),
  itemCount: z.number().int().min(0),
  createdAt: z.iso.datetime(),
  /** Null when the request drew the items; else the job drawing them (items arrive once it SUCCEEDED). */
  itemDraw: z
    .strictObject({
      status: z.enum(["RUNNING", "SUCCEEDED", "FAILED"]),
      total: z.number().int().min(0),
      stopReason: z.string().nullable(),
    })
    .nullable(),
});

/** `GET /api/v1/campaigns`. */
export const campaignListResponseSchema = z.array(campaignResponseSchema);

/** `POST /api/v1/campaigns` (201): the creator is an admin, so the seed is always there. */
export const createdCampaignResponseSchema = campaignResponseSchema.extend({ seed: z.string() });

const itemsPerLanguage = z.record(z.string(), z.number().int().min(0));

/** `POST /api/v1/campaigns/{id}/items`: 200 when added inside the request, 202 RUNNING while a job adds them. */
export const extendCampaignResponseSchema = z.union([
  z.strictObject({
    status: z.literal("SUCCEEDED"),
    added: z.number().int().min(0),
    perLanguage: z.number().int().nullable(),
    before: itemsPerLanguage,
    after: itemsPerLanguage,
  }),
  z.strictObject({
    status: z.literal("RUNNING"),
    perLanguage: z.number().int().nullable(),
    total: z.number().int().min(0),
  }),
]);

/** `DELETE /api/v1/campaigns/{id}` when a job removes the campaign (202; a campaign deleted at once answers 204). */
export const campaignDeletionResponseSchema = z.strictObject({
  status: z.literal("DELETING"),
  items: z.number().int().min(0),
});

/** `POST /api/v1/campaigns/{id}/status`. */
export const campaignStatusResponseSchema = z.strictObject({
  status: z.enum(CAMPAIGN_STATUSES),
  endedLeases: z.number().int().min(0),
});

/**
 * `POST /api/v1/campaigns/{id}/claim`'s optional body: the client's own name, so each of a script's
 * parallel clients under one token holds a lease of its own (without one, all claims of the person
 * share one lease, as the browser's tabs do).
 */
export const claimRequestSchema = z.strictObject({
  client: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, "A client name is 1 to 64 letters, digits, dots, dashes or underscores.")
    .optional(),
});

/** `POST /api/v1/campaigns/{id}/claim` (200; 204 without a body when nothing is left). */
/**
 * `POST /api/v1/campaigns/{id}/claim` when nothing can be handed to the caller now, but items they
 * could label are leased by other annotators and come back if a lease runs out (a 204 means none will).
 */
export const claimWithOthersResponseSchema = z.strictObject({
  item: z.null(),
  /** Items the caller could still label that other annotators hold leases on. */
  withOthers: z.number().int().min(1),
  /** When the first of those leases runs out, unless its holder renews or submits. */
  nextLeaseEndsAt: z.iso.datetime(),
  /** The same, said for a person. */
  message: z.string(),
});

export const claimResponseSchema = z.strictObject({
  item: z.strictObject({ id: z.string(), campaignId: z.string() }),
  /** The record; its critic is null while blind mode hides it from the caller. */
  record: workRecordResponseSchema.extend({ verificationOutcome: z.string().nullable() }),
  leaseExpiresAt: z.iso.datetime(),
  categories: z.array(
    z.strictObject({ key: z.string(), label: z.string(), description: z.string(), invalidating: z.boolean() }),
  ),
});

const progressCounts = {
  items: z.number().int().min(0),
  annotationsWanted: z.number().int().min(0),
  annotationsDone: z.number().int().min(0),
};

/** `GET /api/v1/campaigns/{id}/progress`. */
export const campaignProgressResponseSchema = z.strictObject({
  ...progressCounts,
  /** Items with every label they need; null for annotators (it would tell gold items apart). */
  itemsComplete: z.number().int().min(0).nullable(),
  activeLeases: z.number().int().min(0),
  mine: z.strictObject({
    submitted: z.number().int().min(0),
    skipped: z.number().int().min(0),
    active: z.number().int().min(0),
    available: z.number().int().min(0),
  }),
  byLanguage: z.record(z.string(), z.strictObject(progressCounts)),
});

/** `POST /api/v1/items/{id}/annotations` (201 created, 200 revised or unchanged). */
export const annotationResponseSchema = z.strictObject({
  id: z.string(),
  revision: z.number().int().min(1),
  valid: z.boolean(),
  categories: z.array(z.string()),
  note: z.string().nullable(),
  testLine: z.number().int().nullable(),
  needsReview: z.boolean(),
  /** The label's active time so far; only in the answer to a repeated, unchanged submit. */
  activeMs: z.number().int().min(0).optional(),
  created: z.boolean(),
});

/** `POST /api/v1/items/{id}/lease`. */
export const leaseResponseSchema = z.strictObject({ leaseExpiresAt: z.iso.datetime() });
