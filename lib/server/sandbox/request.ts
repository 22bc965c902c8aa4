import "server-only";

import { z } from "zod";

import { HARNESS_PROFILE_LANGUAGES, harnessProfileSchema } from "@/lib/records/harness";
import { ENVIRONMENT_KINDS } from "@/lib/records/environment-spec";
import { LANGUAGES } from "@/lib/records/languages";

import { SandboxError } from "./errors";
import type { RunRequest } from "./types";

// 1 MB of source per part is far beyond any benchmark record; bigger input is a mistake or abuse.
const MAX_SOURCE_CHARS = 1_000_000;

const runRequestSchema = z
  .object({
    language: z.enum(LANGUAGES),
    solution: z.string().max(MAX_SOURCE_CHARS),
    test: z.string().max(MAX_SOURCE_CHARS),
    timeoutMs: z.number().int().min(100).max(600_000).optional(),
    profile: harnessProfileSchema.nullable().optional(),
    environment: z
      .object({
        version: z.number().int().positive(),
        hostDir: z.string().startsWith("/"),
        kinds: z.array(z.enum(ENVIRONMENT_KINDS)),
        javaJars: z.array(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._+-]*\.jar$/)),
      })
      .nullable()
      .optional(),
  })
  .refine((request) => !request.profile || HARNESS_PROFILE_LANGUAGES[request.profile] === request.language, {
    path: ["profile"],
    message: "the harness profile is for another language",
  });

/** Validates a run request; throws SANDBOX_INVALID_REQUEST with the problems listed. */
export function parseRunRequest(input: unknown): RunRequest {
  const parsed = runRequestSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "request"}: ${issue.message}`);
    throw new SandboxError("SANDBOX_INVALID_REQUEST", `Invalid sandbox request: ${problems.join("; ")}`);
  }
  return parsed.data;
}
