import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import { visibleDatasetWhere } from "@/lib/server/auth/visibility";
import { prisma } from "@/lib/server/db/client";
import { AppError } from "@/lib/server/errors";
import { batchSelect } from "@/lib/server/solvers/queries";

export type SolutionBatchProgress = {
  batchId: string;
  dataset: string;
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  models: string[];
  total: number;
  done: number;
  passed: number;
  failed: number;
  unavailable: number;
  /** Solutions whose time-out could not be told from a busy machine: not known, not failed. */
  inconclusive: number;
  errored: number;
  stopReason: string | null;
  createdAt: Date;
};

/** A solution batch's progress. Scope: records:read (annotators: datasets they see). */
export async function getSolutionBatchProgress({
  actor,
  batchId,
}: {
  actor: Actor | SystemActor;
  batchId: string;
}): Promise<SolutionBatchProgress> {
  assertCan(actor, "records:read");
  const batch = await prisma().solutionBatch.findFirst({
    where: { id: batchId, ...("kind" in actor ? {} : { dataset: visibleDatasetWhere(actor) }) },
    select: batchSelect,
  });
  if (!batch) throw new AppError("NOT_FOUND", "No such solution run.");
  const { id, dataset, ...rest } = batch;
  return { batchId: id, dataset: dataset.name, ...rest };
}
