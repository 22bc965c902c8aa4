import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";

/**
 * What a worker runs for one solution: its code, language and the record's tests; null when the
 * batch stopped, the solution ran already (a job delivered twice) or was replaced by a later import.
 * Scope: datasets:verify.
 */
export async function findSolutionToRun({
  actor,
  batchId,
  solutionId,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  solutionId: string;
}) {
  assertCan(actor, "datasets:verify");
  const batch = await prisma().solutionBatch.findUnique({ where: { id: batchId }, select: { status: true } });
  if (batch?.status !== "RUNNING") return null;
  const solution = await prisma().solution.findFirst({
    where: { id: solutionId, batchId, ranAt: null },
    select: { code: true, record: { select: { id: true, language: true, demoTestFunc: true, fullTestFunc: true } } },
  });
  return solution
    ? {
        code: solution.code,
        recordId: solution.record.id,
        language: solution.record.language,
        demoTestFunc: solution.record.demoTestFunc,
        fullTestFunc: solution.record.fullTestFunc,
      }
    : null;
}
