import { z } from "zod";

import { DEFAULT_REPEAT, MAX_REPEAT } from "@/lib/evidence/flaky";
import { DEFAULT_MUTANTS, MAX_MUTANTS } from "@/lib/evidence/mutation";
import { LANGUAGES } from "@/lib/records/languages";
import { datasetNameSchema, MAX_INT4 } from "@/lib/validation/records";

/** A flakiness check of one record on request: how many times to run each test (2 to 20, default 3). */
export const flakyCheckSchema = z.object({
  repeat: z
    .number({ error: `A whole number from 2 to ${MAX_REPEAT}.` })
    .int(`A whole number from 2 to ${MAX_REPEAT}.`)
    .min(2, "At least 2 runs are needed to see a difference.")
    .max(MAX_REPEAT, `A whole number from 2 to ${MAX_REPEAT}.`)
    .default(DEFAULT_REPEAT),
});

/** The record page's flaky-check button: the record and the runs per test. */
export const recordFlakyCheckSchema = flakyCheckSchema.extend({ recordId: z.number().int().min(1).max(MAX_INT4) });

const wholeUpTo = (max: number) => `A whole number from 0 to ${max}.`;

/**
 * Body of `POST /api/v1/datasets/{name}/evidence` and the dataset page's form: mutants per record for
 * mutation analysis (0: none) and runs of each test for the flakiness check (0: none, else 2 or more).
 */
export const startEvidenceSchema = z
  .object({
    language: z.enum(LANGUAGES).optional(),
    mutants: z
      .number({ error: wholeUpTo(MAX_MUTANTS) })
      .int(wholeUpTo(MAX_MUTANTS))
      .min(0, wholeUpTo(MAX_MUTANTS))
      .max(MAX_MUTANTS, wholeUpTo(MAX_MUTANTS))
      .default(DEFAULT_MUTANTS),
    repeat: z
      .number({ error: wholeUpTo(MAX_REPEAT) })
      .int(wholeUpTo(MAX_REPEAT))
      .min(0, wholeUpTo(MAX_REPEAT))
      .max(MAX_REPEAT, wholeUpTo(MAX_REPEAT))
      .refine((repeat) => repeat !== 1, "One run cannot tell a flaky test: 0 (none) or 2 or more.")
      .default(0),
  })
  .refine((body) => body.mutants > 0 || body.repeat > 0, {
    message: "Ask for mutants, repeated runs, or both.",
    path: ["mutants"],
  });

/** The dataset page's evidence button (startEvidenceAction): the options, for one dataset. */
export const startDatasetEvidenceSchema = startEvidenceSchema.and(z.object({ dataset: datasetNameSchema }));

/** `POST /api/v1/datasets/{name}/evidence` (202): the batch, started or resumed. */
export const evidenceStartResponseSchema = z.strictObject({
  batchId: z.string(),
  total: z.number().int().min(0),
  resumed: z.boolean(),
  tasks: z.array(z.enum(["mutation", "flaky"])),
});

/** `GET /api/v1/evidence/{id}`: an evidence batch's progress. */
export const evidenceProgressResponseSchema = z.strictObject({
  batchId: z.string(),
  dataset: z.string(),
  language: z.string().nullable(),
  mutants: z.number().int().min(0),
  repeat: z.number().int().min(0),
  status: z.enum(["RUNNING", "SUCCEEDED", "FAILED"]),
  total: z.number().int().min(0),
  done: z.number().int().min(0),
  errored: z.number().int().min(0),
  stopReason: z.string().nullable(),
  /** Paused by a person: still RUNNING, its tasks left until it resumes. */
  isPaused: z.boolean(),
  /** Cancelled by a person (FAILED, with who in stopReason): results in flight were not written. */
  isCancelled: z.boolean(),
  /** Jobs the workers take before this batch's first one (other work running, or queued first), at most 10,000 of those queued; 0 once it runs. */
  queuedAhead: z.number().int().min(0),
});
