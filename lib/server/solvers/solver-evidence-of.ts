import "server-only";

import type { SolverEvidence } from "@/lib/evidence/types";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";

/**
 * Solver evidence of the given records — the models whose solution passed both tests (k) of those
 * whose solution ran (n) — in one query; records with no solution that ran are absent.
 * Scope: records:read; the caller has already scoped the records to the actor.
 */
export async function solverEvidenceOf({
  actor,
  recordIds,
}: {
  actor: Actor | SystemActor;
  recordIds: number[];
}): Promise<Map<number, SolverEvidence>> {
  assertCan(actor, "records:read");
  const evidence = new Map<number, SolverEvidence>();
  if (recordIds.length === 0) return evidence;
  const rows = await prisma().solution.findMany({
    where: { recordId: { in: recordIds }, passed: { not: null } },
    select: { recordId: true, model: true, passed: true },
    orderBy: [{ recordId: "asc" }, { model: "asc" }],
  });
  for (const row of rows) {
    const entry = evidence.get(row.recordId) ?? { solved: 0, total: 0, byModel: [] };
    entry.total += 1;
    if (row.passed) entry.solved += 1;
    entry.byModel.push({ model: row.model, solved: row.passed === true });
    evidence.set(row.recordId, entry);
  }
  return evidence;
}
