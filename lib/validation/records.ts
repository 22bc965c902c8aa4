import { z } from "zod";

import { EVIDENCE_REASONS } from "@/lib/evidence/suspicion";
import { recordEvidenceSchema } from "@/lib/evidence/types";
import { unstorableCharacter } from "@/lib/records/json-limits";
import { harnessChoiceSchema } from "@/lib/records/harness";
import { LANGUAGES } from "@/lib/records/languages";
import { OUTCOME_FILTER_NAMES } from "@/lib/records/verification";
import { MAX_REPEAT } from "@/lib/evidence/flaky";

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
  /** Where people should look: weak tests, flaky, solved by no model, critic vs execution (reviewers only). */
  evidence: anyWhenEmpty(z.enum(EVIDENCE_REASONS)),
  /** The weak-tests threshold: a mutation score below it is weak (default 0.5). */
  weakBelow: anyWhenEmpty(z.coerce.number().min(0).max(1)),
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
  /** A shipped mapping's name (humaneval, mbpp, humaneval-x) or a mapping's JSON; none: AutoCodeBench. */
  mapping: z.string().trim().min(1).max(16_000).optional(),
});

/** `POST /api/v1/datasets/{name}/records/preview`: how many leading records to read. */
export const importPreviewQuerySchema = z.object({
  mapping: importQuerySchema.shape.mapping,
  limit: z.coerce.number().int().min(1).max(50).default(5),
});

// What the /api/v1 dataset, record, import and verification routes answer (the API catalog's
// response schemas; route tests parse every answer with them). Timestamps travel as ISO strings.

/** `GET /api/v1/datasets`. */
export const datasetListResponseSchema = z.array(
  z.strictObject({
    id: z.string(),
    name: z.string(),
    records: z.number().int().min(0),
    byLanguage: z.record(z.string(), z.number().int().min(0)),
  }),
);

/** A critic verdict as a reader sees it (null where blind mode hides it). */
const criticVerdictResponseSchema = z.strictObject({
  overallPass: z.boolean().nullable(),
  failedRules: z.array(z.string()),
  rules: z.array(z.strictObject({ rule: z.string(), passed: z.boolean().nullable(), reason: z.string() })),
  keyPoints: z.array(z.string()),
  reasoning: z.string().nullable(),
  raw: z.string(),
});

/** The fields every record answer shares (the records list and a claimed item). */
const recordFields = {
  id: z.number().int(),
  key: z.string(),
  line: z.number().int(),
  language: z.string(),
  difficulty: z.string().nullable(),
  question: z.string(),
  canonicalSolution: z.string(),
  demoTestFunc: z.string(),
  fullTestFunc: z.string(),
  /** The input line's fields Verity has no column for, as imported. */
  extra: z.json(),
  critic: criticVerdictResponseSchema.nullable(),
};

/** A record's fields as a claimed item carries them (no verification figures: the label is the annotator's own). */
export const workRecordResponseSchema = z.strictObject(recordFields);

/** `GET /api/v1/records/{id}`: a record with its verification and evidence (each part null while hidden or not collected). */
export const recordResponseSchema = z.strictObject({
  ...recordFields,
  dataset: z.string(),
  isCriticHidden: z.boolean(),
  /** A campaign showing annotators "nothing" before their first label hides the two fields below (null). */
  isExecutionHidden: z.boolean(),
  /** A campaign showing less than "all but the critic" hides `evidence` and `flaky` (null) before the first label. */
  isEvidenceHidden: z.boolean(),
  executableValid: z.boolean().nullable(),
  verificationOutcome: z.string().nullable(),
  /** Whether its tests gave differing outcomes when repeated; null when not checked or hidden (as evidence.flaky). */
  flaky: z.boolean().nullable(),
  evidence: recordEvidenceSchema,
});

/** `GET /api/v1/datasets/{name}/records`. */
export const recordPageResponseSchema = z.strictObject({
  records: z.array(recordResponseSchema),
  nextCursor: z.number().int().nullable(),
});

const lineErrorSchema = z.strictObject({ line: z.number().int(), message: z.string() });

/** `POST /api/v1/datasets/{name}/records` (201; the same shape with ok false is the 422). */
export const importSummaryResponseSchema = z.strictObject({
  ok: z.boolean(),
  jobId: z.string(),
  dataset: z.string(),
  imported: z.number().int().min(0),
  duplicates: z.number().int().min(0),
  skipped: z.number().int().min(0),
  errorCount: z.number().int().min(0),
  errors: z.array(lineErrorSchema),
  byLanguage: z.record(z.string(), z.number().int().min(0)),
});

/** `PATCH /api/v1/datasets/{name}/harness`: the whole choice, `{language: profile}`. */
export const harnessRequestSchema = z.strictObject({ harness: harnessChoiceSchema });

/** Its answer. */
export const harnessResponseSchema = z.strictObject({ dataset: z.string(), harness: z.record(z.string(), z.string()) });

/** The upload page's preview: the file's opening text (whole lines) and the chosen format. */
export const importPreviewInputSchema = z.object({
  text: z
    .string()
    .min(1, "Choose a file to preview.")
    .max(512 * 1024),
  mapping: importQuerySchema.shape.mapping,
});

/** `POST /api/v1/datasets/{name}/records/preview`: the first records as they would be imported; nothing written. */
export const importPreviewResponseSchema = z.strictObject({
  records: z.array(
    z.strictObject({
      line: z.number().int(),
      key: z.string(),
      language: z.string(),
      difficulty: z.string().nullable(),
      question: z.string(),
      canonicalSolution: z.string(),
      demoTestFunc: z.string(),
      fullTestFunc: z.string(),
      extra: z.json(),
    }),
  ),
  errors: z.array(lineErrorSchema),
  hasMore: z.boolean(),
});

/** `GET /api/v1/imports/{id}`. */
export const importJobResponseSchema = z.strictObject({
  id: z.string(),
  datasetName: z.string(),
  fileName: z.string().nullable(),
  source: z.string(),
  status: z.enum(["RUNNING", "SUCCEEDED", "FAILED"]),
  linesRead: z.number().int().min(0),
  bytesRead: z.number().int().min(0),
  bytesTotal: z.number().int().min(0).nullable(),
  imported: z.number().int().min(0),
  duplicates: z.number().int().min(0),
  skipped: z.number().int().min(0),
  /** The first bad lines, as stored (null while none). */
  errors: z.array(lineErrorSchema).nullable(),
  message: z.string().nullable(),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
});

/** `POST /api/v1/datasets/{name}/verifications` (202). */
export const verificationStartResponseSchema = z.strictObject({
  batchId: z.string(),
  total: z.number().int().min(0),
  resumed: z.boolean(),
});

/** `GET /api/v1/verifications/{id}`. */
export const verificationProgressResponseSchema = z.strictObject({
  batchId: z.string(),
  dataset: z.string(),
  language: z.string().nullable(),
  status: z.enum(["RUNNING", "SUCCEEDED", "FAILED"]),
  total: z.number().int().min(0),
  done: z.number().int().min(0),
  executableValid: z.number().int().min(0),
  failed: z.number().int().min(0),
  unavailable: z.number().int().min(0),
  /** Records whose time-out could not be told from a busy machine: not known, not failed. */
  inconclusive: z.number().int().min(0),
  /** Records whose run failed for want of a dependency (a module, header, …): neither valid nor invalid. */
  environmentFailed: z.number().int().min(0),
  errored: z.number().int().min(0),
  /** Runs of each record's tests to find flaky ones; 0 when the batch was not asked to. */
  repeat: z.number().int().min(0),
  /** Records whose repeated runs gave different outcomes. */
  flaky: z.number().int().min(0),
  stopReason: z.string().nullable(),
  /** Paused by a person: still RUNNING, its records left until it resumes. */
  isPaused: z.boolean(),
  /** Cancelled by a person (FAILED, with who in stopReason): results in flight were not written. */
  isCancelled: z.boolean(),
  /** Jobs the workers take before this batch's first one (other work running, or queued first), at most 10,000 of those queued; 0 once it runs or while paused. */
  queuedAhead: z.number().int().min(0),
});

/**
 * Body of `POST /api/v1/datasets/{name}/verifications` and the dataset page's form: `repeat` K (2–20)
 * also runs each record's tests K times, each alone, and marks the flaky ones.
 */
/** A dataset's name as a page's form sends it: no name holds a NUL (PostgreSQL would refuse to even compare one). */
export const datasetNameSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\0]*$/);

/** The dataset page's harness form, as PATCH /api/v1/datasets/{name}/harness takes it with the name. */
export const datasetHarnessSchema = z.object({ dataset: datasetNameSchema, harness: harnessChoiceSchema });

export const startVerificationSchema = z.object({
  language: z.enum(LANGUAGES).optional(),
  force: z.boolean().default(false),
  repeat: z
    .number({ error: "A whole number of runs from 2 to 20." })
    .int("A whole number of runs from 2 to 20.")
    .min(2, "A whole number of runs from 2 to 20.")
    .max(MAX_REPEAT, "A whole number of runs from 2 to 20.")
    .optional(),
});

/** The dataset page's Verify button (startVerificationAction): re-verify all or not, and the flaky option. */
export const verifyDatasetSchema = z.object({
  dataset: datasetNameSchema,
  force: z.boolean(),
  repeat: startVerificationSchema.shape.repeat,
});
