import "server-only";

import { CRITIC_READING_REASONS, type EvidenceReason, WEAK_TESTS_THRESHOLD } from "@/lib/evidence/suspicion";
import type { Prisma } from "@/lib/generated/prisma/client";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, evidenceReasonScope } from "@/lib/server/auth/permissions";
import { criticHiddenRecordWhere, evidenceHiddenRecordWhere } from "@/lib/server/auth/visibility";

// The evidence reasons of lib/evidence/suspicion.ts as conditions on a record, shared by the dataset's
// record filters and the review page's evidence queues, so the two can never disagree about which
// records have weak tests. Each condition reads a column kept on the record (mutationScore, flaky,
// executableValid) or an indexed lookup (solutions by record, the critic by record id).

/** Records in the reason, by the rule of lib/evidence/suspicion.ts (evidenceReasonsOf). Pure. */
function reasonCondition(reason: EvidenceReason, weakBelow: number): Prisma.RecordWhereInput {
  switch (reason) {
    case "weak_tests":
      return { mutationScore: { lt: weakBelow } };
    case "flaky":
      return { flaky: true };
    case "unsolved":
      return { solutions: { some: { passed: { not: null } }, none: { passed: true } } };
    case "critic_vs_execution":
      // criticExecutionDisagreement: both have a verdict, they differ, and the record is not flaky.
      return {
        OR: [{ flaky: null }, { flaky: false }],
        AND: [
          {
            OR: [
              { critic: { overallPass: true }, executableValid: false },
              { critic: { overallPass: false }, executableValid: true },
            ],
          },
        ],
      };
  }
}

/**
 * The records the actor may find under an evidence reason: the reason's condition, minus records
 * whose evidence a campaign keeps from the actor for now (filtering on hidden evidence would reveal
 * it), and for a reason that reads the critic, minus records whose critic is hidden from them. A
 * reason that reads the critic is for people who review (reviews:write): annotators never filter by
 * the critic beside execution. Scope: records:read (reviews:write for critic_vs_execution).
 */
export async function evidenceReasonWhere({
  actor,
  reason,
  weakBelow = WEAK_TESTS_THRESHOLD,
}: {
  actor: Actor;
  reason: EvidenceReason;
  weakBelow?: number;
}): Promise<Prisma.RecordWhereInput> {
  assertCan(actor, "records:read");
  assertCan(actor, evidenceReasonScope(reason));
  const readsCritic = CRITIC_READING_REASONS.includes(reason);
  return {
    AND: [
      reasonCondition(reason, weakBelow),
      { NOT: evidenceHiddenRecordWhere(actor) },
      ...(readsCritic ? [{ NOT: await criticHiddenRecordWhere(actor) }] : []),
    ],
  };
}
