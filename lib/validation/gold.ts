import { z } from "zod";

import { unstorableCharacter } from "@/lib/records/json-limits";

import { MAX_INT4 } from "./records";

/** The largest share of an annotator's claims a campaign may serve from gold records. */
const MAX_GOLD_SHARE = 0.5;

export const goldShareSchema = z.number().min(0, "Between 0 and 0.5.").max(MAX_GOLD_SHARE, "Between 0 and 0.5.");

const categoryKey = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,40}$/, "Use lowercase letters, digits and dashes.");

/** A record's known verdict as an admin gives it (record page form and each line of a gold file). */
export const goldAnswerSchema = z.object({
  valid: z.boolean(),
  categories: z.array(categoryKey).max(40).default([]),
  note: z
    .string()
    .trim()
    .max(2000)
    .refine(
      (text) => unstorableCharacter(text) === null,
      "Contains a character that cannot be stored (NUL or an unpaired surrogate).",
    )
    .nullable()
    .default(null)
    .transform((note) => note || null),
});

export type GoldAnswer = z.infer<typeof goldAnswerSchema>;

/** The record page's gold form: the record and its answer. */
export const setGoldSchema = goldAnswerSchema.extend({ recordId: z.number().int().min(1).max(MAX_INT4) });

export const clearGoldSchema = z.object({ recordId: z.number().int().min(1).max(MAX_INT4) });

/** The largest gold file accepted (a line is ~150 bytes: room for some 100,000 answers). */
export const MAX_GOLD_FILE_BYTES = 16 * 1024 * 1024;

/** The dataset page's gold import: the file's text (read in the browser). */
export const importGoldSchema = z.object({
  dataset: z.string().trim().min(1).max(200),
  text: z.string().min(1, "Choose a file.").max(MAX_GOLD_FILE_BYTES),
});

// What the /api/v1 gold routes answer (the API catalog's response schemas; route tests parse every
// answer with them).

/** `GET /api/v1/datasets/{name}/gold`. */
export const goldAnswerListResponseSchema = z.array(
  z.strictObject({
    recordId: z.number().int(),
    key: z.string(),
    language: z.string(),
    valid: z.boolean(),
    categories: z.array(z.string()),
    note: z.string().nullable(),
    updatedAt: z.iso.datetime(),
  }),
);

/** `POST /api/v1/datasets/{name}/gold` (201). */
export const goldImportResponseSchema = z.strictObject({ dataset: z.string(), imported: z.number().int().min(0) });
