import { z } from "zod";

import { decodeJobCursor } from "@/lib/jobs/cursor";
import { JOB_ACTIONS, JOB_KINDS, JOB_STATUSES } from "@/lib/jobs/types";

/** A filter from a form or a URL: an empty value means "any"; case does not matter. */
function filterOf<T extends readonly [string, ...string[]]>(values: T, upper: boolean) {
  return z.preprocess(
    (value) =>
      value === "" || value === undefined
        ? undefined
        : typeof value === "string"
          ? upper
            ? value.toUpperCase()
            : value.toLowerCase()
          : value,
    z.enum(values, { error: () => `Expected one of: ${values.join(", ")}.` }).optional(),
  );
}

/** Query parameters of the jobs list (`GET /api/v1/jobs`, the Jobs page, `verity jobs`). */
export const jobQuerySchema = z.object({
  kind: filterOf(JOB_KINDS, false),
  status: filterOf(JOB_STATUSES, true),
  limit: z.coerce
    .number({ error: () => "A number from 1 to 200." })
    .int("A number from 1 to 200.")
    .min(1, "A number from 1 to 200.")
    .max(200, "A number from 1 to 200.")
    .default(50),
  cursor: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z
      .string()
      .max(200)
      .refine(
        (cursor) => decodeJobCursor(cursor) !== null,
        "Not a cursor this list handed out: pass nextCursor as it came.",
      )
      .optional(),
  ),
});
export type JobQuery = z.infer<typeof jobQuerySchema>;

/** The kind and id in `POST /api/v1/jobs/{kind}/{id}/status`, and the Jobs page's buttons. */
export const jobRefSchema = z.object({
  kind: z.enum(JOB_KINDS, { error: () => `Expected one of: ${JOB_KINDS.join(", ")}.` }),
  id: z.string().min(1).max(100),
});

/** The body of `POST /api/v1/jobs/{kind}/{id}/status`. */
export const jobActionBodySchema = z.object({
  action: z.enum(JOB_ACTIONS, { error: () => `Expected one of: ${JOB_ACTIONS.join(", ")}.` }),
});

/** What the Jobs page's buttons send. */
export const jobControlSchema = jobRefSchema.extend(jobActionBodySchema.shape);

const count = z.number().int().min(0);

/** One job in `GET /api/v1/jobs`. */
const jobResponseSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(JOB_KINDS),
  status: z.enum(JOB_STATUSES),
  done: count,
  total: count,
  unit: z.enum(["bytes", "records", "record tasks", "solutions", "items"]),
  startedBy: z.strictObject({ name: z.string().nullable(), email: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  dataset: z.string().nullable(),
  scope: z.string(),
  result: z.string(),
  stopReason: z.string().nullable(),
  href: z.string(),
  actions: z.array(z.enum(JOB_ACTIONS)),
  perMinute: z.number().min(0).nullable(),
  etaSeconds: z.number().int().min(0).nullable(),
});

/** `GET /api/v1/jobs`: a page of jobs, newest first, and the cursor of the next page. */
export const jobPageResponseSchema = z.strictObject({
  jobs: z.array(jobResponseSchema),
  nextCursor: z.string().nullable(),
});

/** `POST /api/v1/jobs/{kind}/{id}/status`: the job's status after the action. */
export const jobActionResponseSchema = z.strictObject({
  kind: z.enum(JOB_KINDS),
  id: z.string(),
  status: z.enum(JOB_STATUSES),
});
