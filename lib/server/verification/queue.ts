import "server-only";

import { parseLanguage } from "@/lib/records/languages";
import type { RunSettings } from "@/lib/server/environments/run-settings";
import { runInSandbox, SandboxError } from "@/lib/server/sandbox";
import { runSteadily } from "@/lib/server/sandbox/steady";
import type { Verdict } from "@/lib/server/verification/batches";
import { defineJobQueue } from "@/lib/server/jobs/engine";
import { verificationJobExpirySeconds } from "@/lib/server/workers/expiry";

import { VERIFY_QUEUE } from "@/lib/server/workers/queue-names";

// The verification queue and what one of its jobs runs: shared by batch verification (a record's
// canonical solution, jobs.ts) and solver results (a model's solution, lib/server/solvers/jobs.ts),
// whose jobs the same workers drain.

export { VERIFY_QUEUE };

/** The verification queue: a job runs one solution's two tests (docs/deploy.md, "Workers", on its expiry). */
export const verifyQueue = defineJobQueue({
  name: VERIFY_QUEUE,
  retryLimit: 3,
  retryDelay: 5,
  expireInSeconds: verificationJobExpirySeconds,
});

/**
 * Runs a solution against a record's demo and full tests (the canonical solution for verification,
 * a model's for solver results), and says what that came to.
 */
export async function runBothTests(record: {
  language: string;
  solution: string;
  demoTestFunc: string;
  fullTestFunc: string;
  /** The dataset's harness profile and environment (runSettingsOf); none: AutoCodeBench's rules, no environment. */
  settings?: RunSettings;
}): Promise<Verdict> {
  try {
    const language = parseLanguage(record.language);
    const { solution, settings } = record;
    const demo = await runSteadily({ language, solution, test: record.demoTestFunc, ...settings }, runInSandbox);
    const full = await runSteadily({ language, solution, test: record.fullTestFunc, ...settings }, runInSandbox);
    return { kind: "ran", demo, full };
  } catch (error) {
    // The isolation failed before the program started: nothing is known about the record, and no
    // other record can run either (writeVerification stops the batch).
    if (error instanceof SandboxError && error.code === "SANDBOX_ISOLATION_FAILED")
      return { kind: "sandbox-error", reason: error.message };
    if (error instanceof SandboxError) return { kind: "unavailable" };
    // Retrying a bug would fail the same way and leave the batch RUNNING for ever.
    console.error(error);
    return { kind: "errored", reason: "the sandbox failed unexpectedly (see the server log)" };
  }
}
