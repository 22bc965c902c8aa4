import { z } from "zod";

import { EVIDENCE_REASONS, type EvidenceReason } from "@/lib/evidence/suspicion";

import { LANGUAGES } from "@/lib/records/languages";

import { MAX_INT4 } from "./records";
import { singleLineText, storableText } from "./text";
import { CATEGORY_NEEDED, namesACategory, verdictFields } from "./verdict";

/** Body of POST /api/v1/items/{id}/adjudication. */
export const adjudicationSchema = z
  .object({
    ...verdictFields,
    reason: storableText().trim().min(1, "Give the reason for the decision.").max(10_000),
    // The revision the reviewer saw; needed to revise an existing decision (409 otherwise).
    baseRevision: z.number().int().min(1).max(MAX_INT4).optional(),
  })
  .refine(namesACategory, CATEGORY_NEEDED);

/** The review page's decision action: a decision on the item. */
export const decideItemSchema = adjudicationSchema.extend({ itemId: z.string().min(1).max(100) });

/** Query of GET /api/v1/campaigns/{id}/disagreements and the review page. */
export const queueQuerySchema = z.object({
  queue: z.enum(["annotators", "critic", "execution", "flagged"]).optional(),
  language: z.enum(LANGUAGES).optional(),
  annotator: singleLineText().max(100).optional(),
  category: singleLineText().max(41).optional(),
  /** An evidence queue instead of a label queue: weak tests, flaky, solved by no model, critic vs execution. */
  look: z.enum(EVIDENCE_REASONS).optional(),
  /** The weak-tests threshold (a mutation score below it is weak); 0.5 when not given. */
  weakBelow: z.coerce.number().min(0).max(1).optional(),
  // Where the page starts (the last row of the previous page): "reasons.position" in a label queue,
  // the position in an evidence queue.
  cursor: z
    .string()
    .regex(/^(\d{1,2}\.)?\d{1,10}$/, "A cursor is the nextCursor of the previous page.")
    .optional(),
});

/** Query of GET /api/v1/campaigns/{id}/evidence-queue. */
export const evidenceQueueQuerySchema = z.object({
  reason: z.enum(EVIDENCE_REASONS),
  weakBelow: z.coerce.number().min(0).max(1).optional(),
  language: z.enum(LANGUAGES).optional(),
  cursor: z.coerce.number().int().min(0).max(MAX_INT4).optional(),
});

const evidenceCounts = z.strictObject(
  Object.fromEntries(EVIDENCE_REASONS.map((reason) => [reason, z.number().int().min(0)])) as Record<
    EvidenceReason,
    z.ZodNumber
  >,
);

/** `GET /api/v1/campaigns/{id}/evidence-queue`. */
export const evidenceQueueResponseSchema = z.strictObject({
  counts: evidenceCounts,
  nextCursor: z.number().int().nullable(),
  items: z.array(
    z.strictObject({
      itemId: z.string(),
      recordId: z.number().int(),
      language: z.string(),
      position: z.number().int(),
      title: z.string(),
      labels: z.number().int().min(0),
      finalValid: z.boolean().nullable(),
      /** Why the record is in the queue, in a sentence. */
      why: z.string(),
    }),
  ),
});

// What the /api/v1 review routes answer (the API catalog's response schemas; route tests parse
// every answer with them). Undefined figures are null, never a made-up number.

const count = z.number().int().min(0);
const figure = z.number().nullable();

/** `GET /api/v1/campaigns/{id}/disagreements`. */
export const reviewQueueResponseSchema = z.strictObject({
  counts: z.strictObject({ critic: count, annotators: count, execution: count, flagged: count }),
  nextCursor: z.string().nullable(),
  items: z.array(
    z.strictObject({
      itemId: z.string(),
      recordId: z.number().int(),
      title: z.string(),
      language: z.string(),
      /** Why the item is in each queue it is in, one sentence per queue. */
      reasons: z.strictObject({
        critic: z.string().optional(),
        annotators: z.string().optional(),
        execution: z.string().optional(),
        flagged: z.string().optional(),
      }),
      votes: z.array(z.strictObject({ annotator: z.string(), valid: z.boolean(), categories: z.array(z.string()) })),
    }),
  ),
});

const agreementFigures = z.strictObject({
  items: count,
  percentAgreement: figure,
  fleissKappa: figure,
  krippendorffAlpha: figure,
  cohensKappa: figure,
});

const humanVsCritic = z.strictObject({
  items: count,
  kappa: figure,
  confusion: z.strictObject({
    bothValid: count,
    bothInvalid: count,
    humanValidCriticInvalid: count,
    humanInvalidCriticValid: count,
  }),
});

const humanVsExecution = z.strictObject({
  items: count,
  notRun: count,
  kappa: figure,
  confusion: z.strictObject({
    bothValid: count,
    bothInvalid: count,
    humanValidExecutionInvalid: count,
    humanInvalidExecutionValid: count,
  }),
});

const revealFigures = {
  labels: count,
  flipped: count,
  flipRate: figure,
  flippedTowardSignal: count,
  withSignal: count,
  agreementBefore: figure,
  agreementAfter: figure,
  kappaBefore: figure,
  kappaAfter: figure,
};

const revealAnalysis = z.strictObject({
  overall: z.strictObject(revealFigures),
  byLanguage: z.record(z.string(), z.strictObject(revealFigures)),
  byAnnotator: z.array(
    z.strictObject({
      userId: z.string(),
      email: z.string(),
      name: z.string().nullable(),
      language: z.string(),
      ...revealFigures,
    }),
  ),
});

/** `GET /api/v1/campaigns/{id}/agreement`. */
export const agreementResponseSchema = z.strictObject({
  overall: agreementFigures,
  byLanguage: z.record(z.string(), agreementFigures),
  humanVsCritic,
  humanVsCriticByLanguage: z.record(z.string(), humanVsCritic),
  humanVsExecution,
  humanVsExecutionByLanguage: z.record(z.string(), humanVsExecution),
  criticRules: z.array(
    z.strictObject({
      rule: z.string(),
      category: z.string(),
      truePositives: count,
      falsePositives: count,
      falseNegatives: count,
      precision: figure,
      recall: figure,
    }),
  ),
  annotators: z.array(
    z.strictObject({
      userId: z.string(),
      email: z.string(),
      name: z.string().nullable(),
      items: count,
      medianActiveMs: figure,
      meanActiveMs: figure,
      fastDecisions: count,
      itemsPerDay: figure,
      agreementWithFinal: figure,
      /** Cohen's kappa with each other annotator, by user id. */
      pairwiseKappa: z.record(z.string(), figure),
      gold: z.strictObject({
        n: count,
        correct: count,
        byLanguage: z.array(z.strictObject({ language: z.string(), n: count, correct: count })),
      }),
    }),
  ),
  /** Blind campaigns only: how labels moved once the critic was shown. */
  blindReveal: revealAnalysis.nullable(),
  /** Campaigns that showed nothing before the first label only: how labels moved once the execution was shown. */
  executionReveal: revealAnalysis.nullable(),
  /** When the figures were counted: the route counts again first whenever anything they count changed. */
  countedAt: z.iso.datetime(),
  /** How far each automatic signal (critic, execution, flaky, weak tests, unsolved, a critic rule) can be trusted. */
  signals: z.array(z.looseObject({ signal: z.string(), n: count })),
});

/** `POST /api/v1/items/{id}/adjudication` (201 first decision, 200 revised). */
export const adjudicationResponseSchema = z.strictObject({
  id: z.string(),
  revision: z.number().int().min(1),
  valid: z.boolean(),
  categories: z.array(z.string()),
  reason: z.string(),
});
