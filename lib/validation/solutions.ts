import { z } from "zod";

import { MAX_MODEL_NAME } from "@/lib/solvers/solutions-file";

import { MAX_INT4 } from "./records";

const modelName = z
  .string()
  .trim()
  .max(MAX_MODEL_NAME, `At most ${MAX_MODEL_NAME} characters.`)
  .regex(/^[^\u0000-\u001f]*$/, "A model name holds no control characters.")
  .optional()
  .transform((value) => value || undefined);

/** The upload page's import: the file's text (read in the browser) and the model of lines that name none. */
export const importSolutionsSchema = z.object({
  dataset: z.string().trim().min(1).max(200),
  text: z.string().min(1, "Choose a file."),
  model: modelName,
});

/** POST /api/v1/datasets/{name}/solutions?model=&fileName= */
export const solutionImportQuerySchema = z.object({
  model: modelName,
  fileName: z.string().trim().max(200).optional(),
});

/** GET /api/v1/datasets/{name}/solutions/records?unsolved=1&cursor=&limit= */
export const recordSolversQuerySchema = z.object({
  unsolved: z
    .enum(["0", "1", "true", "false"])
    .optional()
    .transform((value) => value === "1" || value === "true"),
  cursor: z.coerce.number().int().min(0).max(MAX_INT4).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

/** A solution run's id, as the page polls it. */
export const solutionRunIdSchema = z.object({
  batchId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\0]*$/),
});
