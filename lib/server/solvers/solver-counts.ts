import "server-only";

import { UNAVAILABLE } from "@/lib/records/verification";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { findDataset } from "@/lib/server/solvers/queries";

/** Per model and language: solutions that ran (n), passed both tests, could not run here, and still waiting. */
export type SolverCounts = {
  model: string;
  language: string;
  attempted: number;
  solved: number;
  unavailable: number;
  pending: number;
};

/**
 * The counts behind pass@1 per model and language for a dataset, in SQL over its solutions.
 * Scope: records:read (annotators: datasets they see).
 */
export async function solverCounts({
  actor,
  datasetName,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
}): Promise<SolverCounts[]> {
  assertCan(actor, "records:read");
  const dataset = await findDataset(actor, datasetName);
  return prisma().$queryRaw<SolverCounts[]>`
    SELECT s.model, r.language,
           count(*) FILTER (WHERE s.passed IS NOT NULL)::int AS attempted,
           count(*) FILTER (WHERE s.passed)::int AS solved,
           count(*) FILTER (WHERE s.outcome = ${UNAVAILABLE})::int AS unavailable,
           count(*) FILTER (WHERE s."ranAt" IS NULL)::int AS pending
    FROM "Solution" s JOIN "Record" r ON r.id = s."recordId"
    WHERE r."datasetId" = ${dataset.id}
    GROUP BY s.model, r.language
    ORDER BY s.model, r.language`;
}
