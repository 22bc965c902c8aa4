import "server-only";

import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import { visibleDatasetWhere } from "@/lib/server/auth/visibility";
import { prisma } from "@/lib/server/db/client";
import { AppError } from "@/lib/server/errors";

// Solver results: model outputs imported for a dataset, each run against its record's demo and full
// tests by the batch workers (jobs.ts beside this file). Which models solve a record (k of n)
// and pass@1 per model and language are read from here. This file holds what the operations beside
// it share (one file each: import-solutions.ts, write-solution-run.ts, solver-counts.ts …).

/** The dataset of that name the actor may see (any, for the system actor); NOT_FOUND otherwise. */
export async function findDataset(actor: Actor | SystemActor, datasetName: string) {
  const dataset = await prisma().dataset.findFirst({
    where: { name: datasetName, ...("kind" in actor ? {} : visibleDatasetWhere(actor)) },
    select: { id: true, name: true },
  });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  return dataset;
}

export const batchSelect = {
  id: true,
  status: true,
  models: true,
  total: true,
  done: true,
  passed: true,
  failed: true,
  unavailable: true,
  inconclusive: true,
  errored: true,
  stopReason: true,
  createdAt: true,
  dataset: { select: { name: true } },
} as const;

/** The ids of a batch's solutions still to run, page by page (flat memory). No permission check: the caller opened the batch. */
export async function* solutionIdsToQueue({
  batchId,
  pageSize,
}: {
  batchId: string;
  pageSize: number;
}): AsyncGenerator<string[]> {
  let cursor = "";
  for (;;) {
    const rows = await prisma().solution.findMany({
      where: { batchId, ranAt: null, id: { gt: cursor } },
      orderBy: { id: "asc" },
      take: pageSize,
      select: { id: true },
    });
    if (rows.length === 0) return;
    yield rows.map(({ id }) => id);
    cursor = rows[rows.length - 1].id;
  }
}
