import { z } from "zod";

import { reportRowSchema } from "./reports";

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

// What the release routes answer (the API catalog's response schemas; route tests parse every
// answer with them). The archive is bytes, described in prose.

const count = z.number().int().min(0);
const releaseCounts = { records: count, excluded: count, revised: count };

const releaseStatus = z.enum(["BUILDING", "READY", "FAILED"]);

/** `GET /api/v1/datasets/{name}/releases`, newest first: those still being built, and failed ones, too. */
export const releaseListResponseSchema = z.strictObject({
  releases: z.array(
    z.strictObject({
      name: z.string(),
      createdAt: z.iso.datetime(),
      ...releaseCounts,
      status: releaseStatus,
      failureReason: z.string().nullable(),
    }),
  ),
  nextCursor: z.string().nullable(),
});

/**
 * `POST /api/v1/datasets/{name}/releases`: 201 with the counts when built inside the request, 202
 * with status BUILDING when a job builds it (the list and GET …/releases/{release} say when it is READY).
 */
export const cutReleaseResponseSchema = z.union([
  z.strictObject({ name: z.string(), status: z.literal("READY"), ...releaseCounts }),
  z.strictObject({ name: z.string(), status: z.literal("BUILDING") }),
]);

/** A release's rule (its `rule` JSON column): how records were chosen. */
export const releaseRuleSchema = z.strictObject({
  name: z.literal("final-label-valid"),
  requireExecutable: z.boolean(),
  description: z.string(),
});

/** A release's validity (its `validity` JSON column) as of its creation. */
export const releaseValiditySchema = z.strictObject({
  byLanguage: z.record(z.string(), reportRowSchema),
  pooled: reportRowSchema,
  macro: reportRowSchema,
  campaigns: z.array(z.string()),
  crossCampaignRule: z.string(),
  leftOut: z.strictObject({ campaigns: z.array(z.string()), labelledItems: count }).optional(),
});

/** What a release discloses (its `disclosure` JSON column): annotators, campaigns, sandbox, revisions. */
export const releaseDisclosureSchema = z.strictObject({
  annotatorsPerItem: z.strictObject({
    mean: z.number().nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
    items: count,
  }),
  campaigns: z.array(
    z.strictObject({
      name: z.string(),
      blind: z.boolean(),
      goldShare: z.number(),
      finalRule: z.string(),
      overlap: z.number().int(),
    }),
  ),
  sandbox: z.strictObject({
    backends: z.string(),
    toolchains: z.array(
      z.strictObject({ language: z.string(), backend: z.string(), toolchain: z.string().nullable(), runs: count }),
    ),
    reference: z.array(z.strictObject({ language: z.string(), label: z.string() })),
    /** Records whose execution was inconclusive (a time-out a busy machine could explain); absent from older releases. */
    inconclusive: count.optional(),
    /** The dataset environments batch verification ran with (version null: none) and each language's harness profile; absent from older releases. */
    environments: z
      .array(z.strictObject({ version: z.number().int().nullable(), runs: count, declared: z.string().nullable() }))
      .optional(),
    harness: z.record(z.string(), z.string()).optional(),
  }),
  revisions: z.strictObject({ accepted: count, rejected: count, waiting: count }),
  labels: z.strictObject({ criticHidden: count, criticShown: count }).optional(),
});

/** `GET /api/v1/datasets/{name}/releases/{release}`: the release as stored. */
export const releaseResponseSchema = z.strictObject({
  name: z.string(),
  dataset: z.string(),
  createdAt: z.iso.datetime(),
  ...releaseCounts,
  byLanguage: z.record(z.string(), z.strictObject(releaseCounts)),
  rule: releaseRuleSchema,
  validity: releaseValiditySchema,
  disclosure: releaseDisclosureSchema,
});

const diffRecord = { key: z.string(), line: z.number().int(), language: z.string(), revision: z.number().int() };

/** `GET /api/v1/datasets/{name}/releases/{release}/diff?from=A`: from release A (`a`) to this one (`b`). */
export const releaseDiffResponseSchema = z.strictObject({
  a: z.string(),
  b: z.string(),
  added: z.array(z.strictObject(diffRecord)),
  removed: z.array(z.strictObject(diffRecord)),
  revised: z.array(z.strictObject({ ...diffRecord, fromRevision: z.number().int() })),
});
