import { z } from "zod";

import { ENVIRONMENT_KINDS, environmentSpecSchema } from "@/lib/records/environment-spec";

import { datasetNameSchema as datasetName, MAX_INT4 } from "./records";

const version = z.coerce.number().int().min(1).max(MAX_INT4);

/**
 * The environment page's form: the dataset and one list of pinned entries per kind, flat, so each
 * kind's problems land under its own text area (fieldErrors.python, fieldErrors.npm …) and an
 * empty form under `spec`.
 */
export const buildEnvironmentSchema = z
  .strictObject({ dataset: datasetName, ...environmentSpecSchema.shape })
  .superRefine((input, context) => {
    if (ENVIRONMENT_KINDS.every((kind) => input[kind].length === 0))
      context.addIssue({ code: "custom", path: ["spec"], message: "Declare at least one dependency." });
  });

/** What the page polls while a version builds. */
export const environmentLogInputSchema = z.strictObject({ dataset: datasetName, version });

/** `GET /api/v1/datasets/{name}/environments?before=N`: the page older than version N. */
export const environmentListQuerySchema = z.strictObject({ before: version.optional() });

/**
 * `POST /api/v1/datasets/{name}/environments`: `{spec: {python?, npm?, go?, maven?, debian?, rust?}}`. The
 * spec itself is checked by the domain (declareEnvironment), which names each bad entry under its kind.
 */
export const environmentBuildRequestSchema = z.strictObject({ spec: z.record(z.string(), z.unknown()) });

/** The `{version}` of `/environments/{version}/log`: a whole number (anything else finds nothing). */
export const environmentVersionSchema = version;

// What the /api/v1 environment routes answer (the API catalog's response schemas; route tests parse
// every answer with them). Timestamps travel as ISO strings.

const status = z.enum(["BUILDING", "READY", "FAILED"]);
const entries = z.array(z.string());
const perKind = z.strictObject(Object.fromEntries(ENVIRONMENT_KINDS.map((kind) => [kind, entries.optional()])));

/** `POST /api/v1/datasets/{name}/environments` (202): the version now building. */
export const environmentBuildResponseSchema = z.strictObject({
  dataset: z.string(),
  version: z.number().int().min(1),
  status: z.literal("BUILDING"),
});

/** `GET /api/v1/datasets/{name}/environments`: a page of versions, newest first. */
export const environmentListResponseSchema = z.strictObject({
  dataset: z.string(),
  /** The version the dataset's runs mount; null while none has built. */
  inUse: z.number().int().nullable(),
  versions: z.array(
    z.strictObject({
      version: z.number().int().min(1),
      status,
      spec: perKind.nullable(),
      lock: perKind.nullable(),
      error: z.string().nullable(),
      sizeBytes: z.number().int().min(0).nullable(),
      createdBy: z.string().nullable(),
      createdAt: z.iso.datetime(),
      finishedAt: z.iso.datetime().nullable(),
      isInUse: z.boolean(),
    }),
  ),
  /** The `before` of the next (older) page; null on the last. */
  nextBefore: z.number().int().nullable(),
});

/** `GET /api/v1/datasets/{name}/environments/{version}/log`. */
export const environmentLogResponseSchema = z.strictObject({
  status,
  log: z.string(),
  error: z.string().nullable(),
});
