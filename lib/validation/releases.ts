import { z } from "zod";

/** A release's name: short, one word of letters, digits, ".", "_" and "-" (v1, release_v2, 2026-12). */
export const releaseNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    "A release name is 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit.",
  );

/** Body of POST /api/v1/datasets/{name}/releases and the dataset page's form. */
export const releaseCreateSchema = z.object({
  name: releaseNameSchema,
  requireExecutable: z.boolean().default(false),
});

/** Query of GET /api/v1/datasets/{name}/releases. */
export const releaseListQuerySchema = z.object({
  cursor: releaseNameSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
