import { z } from "zod";

const MAX_CODE = 1024 * 1024;

/** Body of POST /api/v1/records/{id}/runs. */
export const runRequestSchema = z
  .object({
    kind: z.enum(["demo", "full", "both", "scratch"]),
    solution: z.string().max(MAX_CODE, "At most 1 MB of code.").optional(),
    test: z.string().max(MAX_CODE, "At most 1 MB of code.").optional(),
  })
  .refine((body) => body.kind !== "scratch" || body.solution !== undefined || body.test !== undefined, {
    message: "A scratch run needs a solution or a test.",
    path: ["solution"],
  });
