import "server-only";

import { type Actor, SYSTEM_ACTOR, type SystemActor } from "@/lib/server/auth/permissions";
import { findSolutionToRun } from "@/lib/server/solvers/find-solution-to-run";
import { importSolutions, type SolutionImportSummary } from "@/lib/server/solvers/import-solutions";
import { openRevisionSolutionBatch } from "@/lib/server/solvers/open-revision-solution-batch";
import { solutionIdsToQueue } from "@/lib/server/solvers/queries";
import { writeSolutionRun } from "@/lib/server/solvers/write-solution-run";
import { runSettingsOfRecord } from "@/lib/server/environments/run-settings";
import { queueItems } from "@/lib/server/jobs/engine";
import { runBothTests, verifyQueue } from "@/lib/server/verification/queue";
import { jobPriority } from "@/lib/server/workers/priority";

// Solver results as a feature: model outputs are imported (import-solutions.ts beside this file) and each
// solution runs against its record's demo and full tests on the verification queue, drained by the
// same workers as batch verification (a job names a solution instead of a record).

export type SolutionJob = { batchId: string; solutionId: string };

/**
 * Imports a file of model outputs (all or nothing) and queues every solution with code to run.
 * The one path behind `verity solutions import`, the REST route and the upload page.
 * Scope: imports:write (checked by importSolutions).
 */
export async function importAndRunSolutions(
  input: Parameters<typeof importSolutions>[0],
): Promise<SolutionImportSummary> {
  const summary = await importSolutions(input);
  if (summary.toRun > 0) await queueSolutions(summary.batchId, jobPriority(input.actor));
  return summary;
}

/** Queues the runs of a batch's solutions still to run, a page at a time, at the starter's priority. */
async function queueSolutions(batchId: string, priority: number): Promise<void> {
  await queueItems({
    queue: verifyQueue,
    pages: (pageSize) => solutionIdsToQueue({ batchId, pageSize }),
    toJob: (solutionId) => ({ data: { batchId, solutionId } satisfies SolutionJob }),
    priority,
  });
}

/**
 * Runs a record's imported solutions again against its accepted revision (see
 * openRevisionSolutionBatch); null when it has none. Scope: datasets:verify.
 */
export async function rerunRecordSolutions({
  actor,
  recordId,
}: {
  actor: Actor | SystemActor;
  recordId: number;
}): Promise<{ batchId: string; toRun: number } | null> {
  const batch = await openRevisionSolutionBatch({ actor, recordId });
  if (batch) await queueSolutions(batch.batchId, jobPriority(actor));
  return batch;
}

/**
 * Runs one solution for its batch and stores the result; a job delivered twice, or whose solution
 * was replaced by a later import, does nothing. A result the database refuses is stored as errored.
 */
export async function runSolution({ batchId, solutionId }: SolutionJob): Promise<void> {
  const actor = SYSTEM_ACTOR.worker;
  const solution = await findSolutionToRun({ actor, batchId, solutionId });
  if (!solution) return;
  const verdict = await runBothTests({
    language: solution.language,
    solution: solution.code,
    demoTestFunc: solution.demoTestFunc,
    fullTestFunc: solution.fullTestFunc,
    // A model's solution runs as the record's canonical one does: the dataset's harness and environment.
    settings: await runSettingsOfRecord(solution.recordId),
  });
  try {
    await writeSolutionRun({ actor, batchId, solutionId, verdict });
  } catch (error) {
    if (verdict.kind === "errored") throw error;
    console.error(`solutions: the result of solution ${solutionId} could not be stored:`, error);
    await writeSolutionRun({
      actor,
      batchId,
      solutionId,
      verdict: { kind: "errored", reason: "its result could not be stored (see the server log)" },
    });
  }
}
