import "server-only";

import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import {
  findSolutionToRun,
  importSolutions,
  type SolutionImportSummary,
  solutionIdsToQueue,
  writeSolutionRun,
} from "@/lib/server/solvers/solutions";
import { ensureQueue, runBothTests, VERIFY_QUEUE } from "@/lib/server/verification/queue";
import { getBoss } from "@/lib/server/workers/boss";

// Solver results as a feature: model outputs are imported (solutions.ts beside this file) and each
// solution runs against its record's demo and full tests on the verification queue, drained by the
// same workers as batch verification (a job names a solution instead of a record).

const ENQUEUE_CHUNK = 1000;

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
  if (summary.toRun === 0) return summary;
  await ensureQueue();
  const boss = await getBoss();
  for await (const ids of solutionIdsToQueue({ batchId: summary.batchId, pageSize: ENQUEUE_CHUNK })) {
    await boss.insert(
      ids.map((solutionId) => ({
        name: VERIFY_QUEUE,
        data: { batchId: summary.batchId, solutionId } satisfies SolutionJob,
      })),
    );
  }
  return summary;
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
