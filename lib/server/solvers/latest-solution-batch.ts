import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { getSolutionBatchProgress, type SolutionBatchProgress } from "@/lib/server/solvers/get-solution-batch-progress";
import { findDataset } from "@/lib/server/solvers/queries";

/** The newest solution batch of a dataset, or null. Scope: records:read. */
export async function latestSolutionBatch({
  actor,
  datasetName,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
}): Promise<SolutionBatchProgress | null> {
  assertCan(actor, "records:read");
  const dataset = await findDataset(actor, datasetName);
  const batch = await prisma().solutionBatch.findFirst({
    where: { datasetId: dataset.id },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return batch ? getSolutionBatchProgress({ actor, batchId: batch.id }) : null;
}
