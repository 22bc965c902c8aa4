import "server-only";

import { NO_CODE } from "@/lib/solvers/outcomes";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";

/** A batch's origin when it re-runs a record's solutions against an accepted repair (no file). */
const REVISION_ORIGIN = "revision";

/**
 * Moves a record's imported solutions into a new batch to run again against the record as it is now
 * (a repair was accepted: the tests or the solution changed, so the old results speak of old
 * content). Their results are cleared until their runs store new ones; replies with no code stay
 * decided (nothing to run). Null when the record has no solution to run. Scope: datasets:verify.
 */
export async function openRevisionSolutionBatch({
  actor,
  recordId,
}: {
  actor: Actor | SystemActor;
  recordId: number;
}): Promise<{ batchId: string; toRun: number } | null> {
  assertCan(actor, "datasets:verify");
  return prisma().$transaction(async (tx) => {
    const record = await tx.record.findUnique({ where: { id: recordId }, select: { datasetId: true } });
    if (!record) return null;
    const solutions = await tx.solution.findMany({
      where: { recordId, OR: [{ outcome: null }, { outcome: { not: NO_CODE } }] },
      select: { id: true, model: true },
    });
    if (solutions.length === 0) return null;
    const batch = await tx.solutionBatch.create({
      data: {
        datasetId: record.datasetId,
        origin: REVISION_ORIGIN,
        models: [...new Set(solutions.map((solution) => solution.model))].sort(),
        total: solutions.length,
        createdById: personIdOf(actor),
      },
      select: { id: true },
    });
    // SQL rules run by this update (prisma/sql): triggers/Solution.Solution_note_changes_update.sql,
    // running functions/verity_note_record_changes.sql (CampaignChange).
    await tx.solution.updateMany({
      where: { id: { in: solutions.map((solution) => solution.id) } },
      data: {
        batchId: batch.id,
        outcome: null,
        demoOutcome: null,
        fullOutcome: null,
        passed: null,
        detail: null,
        timeMs: null,
        ranAt: null,
      },
    });
    return { batchId: batch.id, toRun: solutions.length };
  });
}
