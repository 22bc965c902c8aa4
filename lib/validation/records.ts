import { z } from "zod";

import { LANGUAGES } from "@/lib/records/languages";

/** Query parameters of the records list (REST and browser). */
export const recordQuerySchema = z.object({
  language: z.enum(LANGUAGES).optional(),
  difficulty: z.enum(["easy", "medium", "hard"]).optional(),
  critic: z.enum(["pass", "fail", "none"]).optional(),
  executable: z.enum(["valid", "failed", "unknown"]).optional(),
  q: z.string().trim().max(200).optional().transform((value) => value || undefined),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.coerce.number().int().min(0).optional(),
});

export type RecordQuery = z.infer<typeof recordQuerySchema>;

export const importQuerySchema = z.object({
  skipInvalid: z.enum(["0", "1", "true", "false"]).optional().transform((value) => value === "1" || value === "true"),
  fileName: z.string().max(255).optional(),
});
