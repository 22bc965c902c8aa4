// What the /api/v1 report and export routes answer in JSON (the API catalog's response schemas;
// route tests parse every answer with them). The CSV and Markdown forms are described in prose.
import { z } from "zod";

import { SAMPLING_MODES } from "@/lib/evidence/suspicion";

import { FINAL_RULES } from "./campaigns";

const count = z.number().int().min(0);
/** A rate in [0, 1]; null when it has no base. */
const rate = z.number().min(0).max(1).nullable();
/** Wilson 95% interval, as fractions. */
const interval = z.tuple([z.number(), z.number()]).nullable();
/** A kappa or an alpha: may be negative; null when undefined. */
const coefficient = z.number().nullable();

/** One row of a validity table (a language, pooled or macro); a release stores its table in this shape. */
export const reportRowSchema = z.strictObject({
  sampled: count,
  labelled: count,
  resolved: count,
  valid: count,
  validity: rate,
  ci: interval,
  criticPass: rate,
  criticN: count,
  executableValid: rate,
  executableUnavailable: count,
  executableN: count,
  humanCriticKappa: coefficient,
  alpha: coefficient,
  topCategories: z.array(z.strictObject({ key: z.string(), count })),
});

const reportFields = {
  campaign: z.strictObject({
    id: z.string(),
    name: z.string(),
    dataset: z.string(),
    finalRule: z.string(),
    overlap: z.number().int(),
  }),
  /** Which items the rates count: only a random campaign's (a suspicion-ordered campaign's report has counts, rates null). */
  sampling: z.strictObject({ mode: z.enum(SAMPLING_MODES), note: z.string() }),
  byLanguage: z.record(z.string(), reportRowSchema),
  pooled: reportRowSchema,
  /** Unweighted mean over languages of each rate; counts are totals; no interval. */
  macro: reportRowSchema,
  byDifficulty: z.record(
    z.string(),
    z.strictObject({ sampled: count, resolved: count, valid: count, validity: rate, ci: interval }),
  ),
  byCategory: z.array(z.strictObject({ key: z.string(), label: z.string(), count, shareOfInvalid: rate })),
  /** Invalid labels per category key, per language. */
  categoriesByLanguage: z.record(z.string(), z.record(z.string(), count)),
  /** Sampled records found flaky (repeated runs differed), per language: beside the validity figures, not in them. */
  flaky: z.strictObject({ records: count, byLanguage: z.record(z.string(), count) }),
};

/** `GET /api/v1/campaigns/{id}/report` with format=json (the default). */
export const campaignReportResponseSchema = z.strictObject(reportFields);

/**
 * `GET /api/v1/datasets/{name}/report` with format=json: the same report across the dataset's
 * campaigns (`campaign` names the dataset), the campaigns it draws on and the rule that picks a
 * record's label when several campaigns labelled it.
 */
export const datasetReportResponseSchema = z.strictObject({
  ...reportFields,
  campaigns: z.array(z.strictObject({ id: z.string(), name: z.string(), finalRule: z.enum(FINAL_RULES) })),
  rule: z.string(),
  /** Suspicion-ordered campaigns the figures leave out, with their items and labelled items. */
  leftOut: z.strictObject({
    campaigns: z.array(z.strictObject({ id: z.string(), name: z.string() })),
    items: count,
    labelledItems: count,
  }),
});

const verdict = z.enum(["valid", "invalid"]);
const recordColumns = {
  campaign: z.string(),
  record_key: z.string(),
  line: z.number().int(),
  language: z.string(),
  difficulty: z.string().nullable(),
};

/** One line of `what=labels`: an item, its final label and how it was reached. */
const labelLine = z.strictObject({
  ...recordColumns,
  final_label: z.enum(["valid", "invalid", "unresolved"]),
  categories: z.array(z.string()),
  rule: z.enum(FINAL_RULES),
  decided_by: z.enum(["adjudication", "unanimous", "majority", "strict", "unresolved"]),
  adjudication_reason: z.string().nullable(),
  labels: count,
  valid_labels: count,
  critic_pass: z.boolean().nullable(),
  executable_valid: z.boolean().nullable(),
});

/** One line of `what=annotations`: one annotator's label. */
const annotationLine = z.strictObject({
  ...recordColumns,
  annotator: z.string(),
  label: verdict,
  categories: z.array(z.string()),
  note: z.string().nullable(),
  needs_review: z.boolean(),
  /** Blind campaigns only: the label given before the critic was shown. */
  pre_reveal_label: verdict.nullable(),
  active_seconds: z.number().min(0),
  revision: z.number().int().min(1),
  created_at: z.iso.datetime(),
  revised_at: z.iso.datetime().nullable(),
});

/** One line of `what=verified`: a final-Valid record in the input format (its own fields kept), with how it was verified. */
const verifiedLine = z.looseObject({
  question: z.string(),
  canonical_solution: z.string(),
  demo_test_func: z.string(),
  full_test_func: z.string(),
  language: z.string(),
  verification: z.strictObject({
    campaign: z.string(),
    record_key: z.string(),
    final_label: z.literal("valid"),
    decided_by: z.enum(["adjudication", "unanimous", "majority", "strict"]),
    annotators: count,
    critic_pass: z.boolean().nullable(),
    executable_valid: z.boolean().nullable(),
    execution_outcome: z.string().nullable(),
    runs: z.array(
      z.strictObject({
        test: z.enum(["demo", "full"]),
        outcome: z.string(),
        exit_code: z.number().int().nullable(),
        signal: z.string().nullable(),
        compile_ms: z.number().nullable(),
        run_ms: z.number().nullable(),
        time_ms: z.number(),
        backend: z.string(),
        toolchain: z.string().nullable(),
        limit: z.string().nullable(),
        stdout: z.string(),
        stderr: z.string(),
        compile_output: z.string().nullable(),
      }),
    ),
  }),
});

/** One JSONL line of `GET /api/v1/campaigns/{id}/export` (format=jsonl; CSV rows carry the same columns). */
export const exportLineResponseSchema = z.union([labelLine, annotationLine, verifiedLine]);
