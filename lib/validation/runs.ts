import { z } from "zod";

import { ENVIRONMENT_FAILURE_KINDS } from "@/lib/runs/environment-failure";
import { MAX_INT4 } from "@/lib/validation/records";
import type { BackendName, LimitName, Outcome } from "@/lib/server/sandbox/types";

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

/** The record pages' run action (runRecordAction): a run request for one record, checked by the form first. */
export const runRecordSchema = runRequestSchema.extend({ recordId: z.number().int().min(1).max(MAX_INT4) });

// What `POST /api/v1/records/{id}/runs` answers (the API catalog's response schema; route tests
// parse every answer with it). The names are the sandbox's; a check below keeps them equal.

const RUN_OUTCOMES = [
  "PASSED",
  "WRONG_ANSWER",
  "RUNTIME_ERROR",
  "COMPILATION_ERROR",
  "TIME_LIMIT_EXCEEDED",
  "SYNTAX_ERROR",
  "ARGUMENT_ERROR",
  "INTERNAL_ERROR",
  "INCONCLUSIVE",
] as const satisfies readonly Outcome[];
const RUN_LIMITS = ["time", "memory", "output", "processes"] as const satisfies readonly LimitName[];
const RUN_BACKENDS = ["local", "acb"] as const satisfies readonly BackendName[];
// Fails to compile when the sandbox gains an outcome, a limit or a backend this answer does not name.
const _everyName: [Outcome, LimitName, BackendName] extends [
  (typeof RUN_OUTCOMES)[number],
  (typeof RUN_LIMITS)[number],
  (typeof RUN_BACKENDS)[number],
]
  ? true
  : never = true;

/** One stored run, outputs cut to their first and last 32 KiB. */
const storedRunSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(["DEMO", "FULL", "SCRATCH"]),
  createdAt: z.iso.datetime(),
  outcome: z.enum(RUN_OUTCOMES),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  compileOutput: z.string().nullable(),
  timeMs: z.number().min(0),
  memoryKb: z.number().min(0).nullable(),
  limit: z.enum(RUN_LIMITS).nullable(),
  stdoutTruncated: z.boolean(),
  stderrTruncated: z.boolean(),
  /** The spliced program that actually ran. */
  program: z.string(),
  backend: z.enum(RUN_BACKENDS),
  language: z.string(),
  compileMs: z.number().min(0).nullable().optional(),
  runMs: z.number().min(0).nullable().optional(),
  toolchain: z.string().nullable().optional(),
  /** CPU time of the last step; what ended a time-out (the wall clock, or a run alone's CPU budget). */
  cpuMs: z.number().min(0).nullable().optional(),
  timedOutBy: z.enum(["wall", "cpu"]).nullable().optional(),
  /** How long the run waited for a sandbox slot, and the machine's 1-minute load when it ended. */
  waitMs: z.number().min(0).nullable().optional(),
  loadAverage: z.number().min(0).nullable().optional(),
  /** Why the outcome is not the program's own verdict (INCONCLUSIVE: a time-out the load could explain). */
  verdictNote: z.string().nullable().optional(),
  /**
   * A failed run's missing dependency (module, header, library, package or crate) and its name: the
   * environment's failure, not the record's; the outcome stays the reference sandbox's.
   */
  environmentKind: z.enum(ENVIRONMENT_FAILURE_KINDS).nullable().optional(),
  environmentMissing: z.string().nullable().optional(),
  /** The dataset environment version the run had mounted at /env (null: none). */
  environmentVersion: z.number().int().nullable().optional(),
});

/** `POST /api/v1/records/{id}/runs` (201): one run per test asked for (both: demo, then full). */
export const runsResponseSchema = z.strictObject({ runs: z.array(storedRunSchema).min(1).max(2) });
