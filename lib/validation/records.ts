import { z } from "zod";

import { unstorableCharacter } from "@/lib/records/json-limits";
import { LANGUAGES } from "@/lib/records/languages";

// PostgreSQL text cannot hold a NUL or an unpaired surrogate: refuse them here rather than fail in SQL.
const storableText = (max: number) => z.string().max(max).refine((text) => unstorableCharacter(text) === null, "Contains a character that cannot be stored (NUL or an unpaired surrogate).");

/** Query parameters of the records list (REST and browser). */
export const recordQuerySchema = z.object({
  language: z.enum(LANGUAGES).optional(),
  difficulty: z.enum(["easy", "medium", "hard"]).optional(),
  critic: z.enum(["pass", "fail", "none"]).optional(),
  executable: z.enum(["valid", "failed", "unknown"]).optional(),
  q: storableText(200).trim().optional().transform((value) => value || undefined),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.coerce.number().int().min(0).optional(),
});

export type RecordQuery = z.infer<typeof recordQuerySchema>;

export const importQuerySchema = z.object({
  skipInvalid: z.enum(["0", "1", "true", "false"]).optional().transform((value) => value === "1" || value === "true"),
  fileName: storableText(255).optional(),
});
