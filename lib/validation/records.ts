import { z } from "zod";

import { LANGUAGES } from "@/lib/records/languages";

/** The largest value of a PostgreSQL `integer` column; larger ids name nothing that can exist. */
export const MAX_INT4 = 2_147_483_647;

/** A record id from a URL (pages and REST); anything else is a record that does not exist. */
export const recordIdSchema = z.string().regex(/^[1-9][0-9]{0,9}$/).transform(Number).pipe(z.number().max(MAX_INT4));

/** Query parameters of the records list (REST and browser). */
export const recordQuerySchema = z.object({
  language: z.enum(LANGUAGES).optional(),
  difficulty: z.enum(["easy", "medium", "hard"]).optional(),
  critic: z.enum(["pass", "fail", "none"]).optional(),
  executable: z.enum(["valid", "failed", "unknown"]).optional(),
  q: z.string().trim().max(200).optional().transform((value) => value || undefined),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.coerce.number().int().min(0).max(MAX_INT4).optional(),
});

export type RecordQuery = z.infer<typeof recordQuerySchema>;

export const importQuerySchema = z.object({
  skipInvalid: z.enum(["0", "1", "true", "false"]).optional().transform((value) => value === "1" || value === "true"),
  fileName: z.string().max(255).optional(),
});
