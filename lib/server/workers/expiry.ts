import "server-only";

import { LANGUAGES } from "@/lib/records/languages";
import { ACB_REQUEST_LIMIT_MS } from "@/lib/server/sandbox/acb";
import { ALONE_WALL_FACTOR } from "@/lib/server/sandbox/local-job";
import { getRecipe, stepTimeoutMs } from "@/lib/server/sandbox/recipes";

// A verification job runs the demo test, then the full test.
const TESTS_PER_JOB = 2;
// Beyond the longest run: waiting for a sandbox slot shared with interactive runs, and the database.
export const JOB_EXPIRY_MARGIN_MS = 2 * 60_000;

/**
 * The longest one verification job can take on the local backend for `language` (pure): per test,
 * each step (compile, run) may use its whole time limit, and a time-out is run again alone with
 * ALONE_WALL_FACTOR times the limit (runSteadily).
 */
export function longestLocalJobMs(language: (typeof LANGUAGES)[number]): number {
  const steps = getRecipe(language).compile ? 2 : 1;
  return TESTS_PER_JOB * steps * stepTimeoutMs(language) * (1 + ALONE_WALL_FACTOR);
}

/**
 * How long a verification job may stay active before pg-boss takes it back and retries it: the
 * longest job of any language on either backend (an acb request is cut at its service's limit) plus
 * a margin. A worker that dies is noticed sooner, by its missed heartbeats (./workers.ts).
 */
export function verificationJobExpirySeconds(): number {
  const longestMs = Math.max(TESTS_PER_JOB * ACB_REQUEST_LIMIT_MS, ...LANGUAGES.map(longestLocalJobMs));
  return Math.ceil((longestMs + JOB_EXPIRY_MARGIN_MS) / 1000);
}
