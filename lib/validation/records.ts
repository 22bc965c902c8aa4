import { z } from "zod";

import { unstorableCharacter } from "@/lib/records/json-limits";
import { LANGUAGES } from "@/lib/records/languages";
import { OUTCOME_FILTER_NAMES } from "@/lib/records/verification";

/** The largest value of a PostgreSQL `integer` column; larger ids name nothing that can exist. */
export const MAX_INT4 = 2_147_483_647;

/** A record id from a URL (pages and REST); anything else is a record that does not exist. */
export const recordIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/)
  .transform(Number)
  .pipe(z.number().max(MAX_INT4));

// PostgreSQL text cannot hold a NUL or an unpaired surrogate: refuse them here rather than fail in SQL.
const storableText = (max: number) =>
  z
    .string()
    .max(max)
    .refine(
      (text) => unstorableCharacter(text) === null,
      "Contains a character that cannot be stored (NUL or an unpaired surrogate).",
    );

/** A filter from a form: an empty value (what a select's "All" option sends) means "any". */
function anyWhenEmpty<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === "" ? undefined : value), schema.optional());
}

/** Query parameters of the records list (REST and browser). */
export const recordQuerySchema = z.object({
  language: anyWhenEmpty(z.enum(LANGUAGES)),
  difficulty: anyWhenEmpty(z.enum(["easy", "medium", "hard"])),
  critic: anyWhenEmpty(z.enum(["pass", "fail", "none"])),
  executable: anyWhenEmpty(z.enum(["valid", "failed", "unknown", "flaky"])),
  outcome: anyWhenEmpty(z.enum(OUTCOME_FILTER_NAMES)),
  q: storableText(200)
    .trim()
    .optional()
    .transform((value) => value || undefined),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: anyWhenEmpty(z.coerce.number().int().min(0).max(MAX_INT4)),
});

export type RecordQuery = z.infer<typeof recordQuerySchema>;

/**
 * Parses the record browser's query for a page: the valid filters apply, and each invalid one is
 * returned as an error to show beside the form (never silently dropped with the others).
 */
export function parseRecordQueryForPage(raw: Record<string, string | string[] | undefined>): {
  query: RecordQuery;
  errors: Record<string, string[]>;
} {
  const parsed = recordQuerySchema.safeParse(raw);
  if (parsed.success) return { query: parsed.data, errors: {} };
  const errors = z.flattenError(parsed.error).fieldErrors as Record<string, string[]>;
  const valid = Object.fromEntries(Object.entries(raw).filter(([key]) => !(key in errors)));
  return { query: recordQuerySchema.parse(valid), errors };
}

export const importQuerySchema = z.object({
  skipInvalid: z
    .enum(["0", "1", "true", "false"])
    .optional()
    .transform((value) => value === "1" || value === "true"),
  fileName: storableText(255).optional(),
});
