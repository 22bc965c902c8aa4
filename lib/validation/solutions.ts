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

// What the /api/v1 solver routes answer (the API catalog's response schemas; route tests parse
// every answer with them). Timestamps travel as ISO strings.

const count = z.number().int().min(0);
/** Solutions that passed both tests ÷ those that ran; null when none ran. */
const passAtOneFigures = {
  attempted: count,
  solved: count,
  passAtOne: z.number().min(0).max(1).nullable(),
  /** Wilson 95% interval of pass@1, as fractions; null when none ran. */
  interval: z.tuple([z.number(), z.number()]).nullable(),
  unavailable: count,
  pending: count,
};

/** `GET /api/v1/solution-runs/{id}`: a solution run's progress. */
export const solutionRunResponseSchema = z.strictObject({
  batchId: z.string(),
  dataset: z.string(),
  status: z.enum(["RUNNING", "SUCCEEDED", "FAILED"]),
  models: z.array(z.string()),
  total: count,
  done: count,
  passed: count,
  failed: count,
  unavailable: count,
  /** Solutions whose time-out could not be told from a busy machine: neither solved nor failed. */
  inconclusive: count,
  errored: count,
  stopReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

/** `GET /api/v1/datasets/{name}/solutions`: pass@1 per model, overall and per language, and the newest run. */
export const solverResultsResponseSchema = z.strictObject({
  dataset: z.string(),
  passAtOne: z.array(
    z.strictObject({
      model: z.string(),
      ...passAtOneFigures,
      byLanguage: z.record(z.string(), z.strictObject(passAtOneFigures)),
    }),
  ),
  latestRun: solutionRunResponseSchema.nullable(),
});

/** `POST /api/v1/datasets/{name}/solutions` (201): what was imported and queued. */
export const solutionImportResponseSchema = z.strictObject({
  dataset: z.string(),
  batchId: z.string(),
  imported: count,
  withoutCode: count,
  toRun: count,
  models: z.array(z.string()),
});

/** `GET /api/v1/datasets/{name}/solutions/records`: a page of records with the models that solve each (k of n). */
export const recordSolversResponseSchema = z.strictObject({
  rows: z.array(
    z.strictObject({
      recordId: z.number().int(),
      line: z.number().int(),
      language: z.string(),
      question: z.string(),
      solvedBy: z.array(z.string()),
      triedBy: z.array(z.string()),
    }),
  ),
  nextCursor: z.number().int().nullable(),
});
