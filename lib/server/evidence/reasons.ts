import "server-only";

import {
  CRITIC_READING_REASONS,
  EVIDENCE_REASONS,
  type EvidenceReason,
  WEAK_TESTS_THRESHOLD,
} from "@/lib/evidence/suspicion";
import type { Prisma } from "@/lib/generated/prisma/client";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, evidenceReasonScope } from "@/lib/server/auth/permissions";
import { criticHiddenRecordWhere, evidenceHiddenRecordWhere, heldHiddenRecords } from "@/lib/server/auth/visibility";

import { prisma } from "@/lib/server/db/client";

// The evidence reasons of lib/evidence/suspicion.ts as conditions on a record, shared by the dataset's
// record filters and the review page's evidence queues, so the two can never disagree about which
// records have weak tests. Each condition reads the mask kept on the record (evidenceReasons, kept by
// triggers from its columns, critic verdict and solutions: functions/verity_evidence_reasons.sql),
// or for weak tests under another threshold than the default, the mutation score. Their counts add up
// the kept counts per mask (EvidenceCount, CampaignEvidenceCount) instead of counting records.

/** The bit of each reason in the kept masks (functions/verity_evidence_reasons.sql): 2^k for EVIDENCE_REASONS[k]. */
const EVIDENCE_REASON_BITS: Record<EvidenceReason, number> = Object.fromEntries(
  EVIDENCE_REASONS.map((reason, index) => [reason, 1 << index]),
) as Record<EvidenceReason, number>;

/** Every mask value that holds the reason. Pure. */
function masksHolding(reason: EvidenceReason): number[] {
  const bit = EVIDENCE_REASON_BITS[reason];
  return Array.from({ length: 1 << EVIDENCE_REASONS.length }, (_, mask) => mask).filter((mask) => (mask & bit) !== 0);
}

/** Whether the kept mask answers the reason: weak tests only at the default threshold. Pure. */
function isKept(reason: EvidenceReason, weakBelow: number): boolean {
  return reason !== "weak_tests" || weakBelow === WEAK_TESTS_THRESHOLD;
}

/** Records in the reason, by the rule of lib/evidence/suspicion.ts (evidenceReasonsOf). Pure. */
function reasonCondition(reason: EvidenceReason, weakBelow: number): Prisma.RecordWhereInput {
  return isKept(reason, weakBelow)
    ? { evidenceReasons: { in: masksHolding(reason) } }
    : { mutationScore: { lt: weakBelow } };
}

/** The records whose reason the actor may not filter by: hidden evidence, and for a reason that reads the critic, a hidden critic. */
async function hiddenConditions(actor: Actor, reason: EvidenceReason): Promise<Prisma.RecordWhereInput[]> {
  const readsCritic = CRITIC_READING_REASONS.includes(reason);
  return [
    { NOT: evidenceHiddenRecordWhere(actor) },
    ...(readsCritic ? [{ NOT: await criticHiddenRecordWhere(actor) }] : []),
  ];
}

/** The scope an evidence reason needs: records:read, and reviews:write for one that reads the critic. */
function assertMayFilter(actor: Actor, reason: EvidenceReason): void {
  assertCan(actor, "records:read");
  assertCan(actor, evidenceReasonScope(reason));
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
  assertMayFilter(actor, reason);
  return { AND: [reasonCondition(reason, weakBelow), ...(await hiddenConditions(actor, reason))] };
}

/**
 * The campaign items the actor may find under an evidence reason: as evidenceReasonWhere, with the
 * reason read from the mask the item carries (the same as its record's). Scope: as evidenceReasonWhere.
 */
export async function evidenceReasonItemWhere({
  actor,
  reason,
  weakBelow = WEAK_TESTS_THRESHOLD,
}: {
  actor: Actor;
  reason: EvidenceReason;
  weakBelow?: number;
}): Promise<Prisma.CampaignItemWhereInput> {
  assertMayFilter(actor, reason);
  const hidden = await hiddenConditions(actor, reason);
  return isKept(reason, weakBelow)
    ? { evidenceReasons: { in: masksHolding(reason) }, record: { AND: hidden } }
    : { record: { AND: [reasonCondition(reason, weakBelow), ...hidden] } };
}

/**
 * How many records of a dataset (or, with `campaignId`, non-gold items of that campaign of the
 * dataset) the actor finds under each of `reasons`, in one language or all: exactly what counting
 * evidenceReasonWhere's (or evidenceReasonItemWhere's) matches gives. For a reviewer or admin at the
 * default weak-tests threshold it adds up the kept counts per mask and takes away the few records a
 * campaign hides from them for now (heldHiddenRecords); for an annotator, or weak tests under another
 * threshold, it counts the matches. Scope: as evidenceReasonWhere for each reason.
 */
export async function countEvidenceReasons<R extends EvidenceReason>({
  actor,
  datasetId,
  campaignId,
  reasons,
  language,
  weakBelow = WEAK_TESTS_THRESHOLD,
}: {
  actor: Actor;
  datasetId: string;
  campaignId?: string;
  reasons: readonly R[];
  language?: string;
  weakBelow?: number;
}): Promise<Record<R, number>> {
  for (const reason of reasons) assertMayFilter(actor, reason);
  const hidden = reasons.some((reason) => isKept(reason, weakBelow)) ? await heldHiddenRecords(actor, datasetId) : null;
  const kept = hidden ? await keptCounts({ datasetId, campaignId, language, hidden }) : null;
  const counts = await Promise.all(
    reasons.map(async (reason) => {
      if (kept && isKept(reason, weakBelow)) {
        const bit = EVIDENCE_REASON_BITS[reason];
        const readsCritic = CRITIC_READING_REASONS.includes(reason);
        const total = kept.perMask.reduce((sum, row) => sum + ((row.reasons & bit) !== 0 ? row.n : 0), 0);
        const left = kept.hiddenMasks.filter(
          (row) => (row.reasons & bit) !== 0 && (row.evidence || (readsCritic && row.critic)),
        ).length;
        return total - left;
      }
      return campaignId
        ? prisma().campaignItem.count({
            where: {
              campaignId,
              gold: false,
              ...(language ? { language } : {}),
              ...(await evidenceReasonItemWhere({ actor, reason, weakBelow })),
            },
          })
        : prisma().record.count({
            where: {
              AND: [
                { datasetId, ...(language ? { language } : {}) },
                await evidenceReasonWhere({ actor, reason, weakBelow }),
              ],
            },
          });
    }),
  );
  return Object.fromEntries(reasons.map((reason, index) => [reason, counts[index]])) as Record<R, number>;
}

/** The kept counts per mask of a dataset's records or a campaign's non-gold items, and the masks of the hidden ones among them. */
async function keptCounts({
  datasetId,
  campaignId,
  language,
  hidden,
}: {
  datasetId: string;
  campaignId?: string;
  language?: string;
  hidden: Map<number, { evidence: boolean; critic: boolean }>;
}) {
  const recordIds = [...hidden.keys()];
  const inLanguage = language ? { language } : {};
  const masked = { evidenceReasons: { not: 0 }, ...inLanguage };
  const [perMask, hiddenRows] = await Promise.all([
    keptPerMask({ datasetId, campaignId, language }),
    recordIds.length === 0
      ? []
      : campaignId
        ? prisma().campaignItem.findMany({
            where: { campaignId, gold: false, recordId: { in: recordIds }, ...masked },
            select: { recordId: true, evidenceReasons: true },
          })
        : prisma()
            .record.findMany({
              where: { datasetId, id: { in: recordIds }, ...masked },
              select: { id: true, evidenceReasons: true },
            })
            .then((rows) => rows.map((row) => ({ recordId: row.id, evidenceReasons: row.evidenceReasons }))),
  ]);
  return {
    perMask,
    hiddenMasks: hiddenRows.map((row) => ({
      reasons: row.evidenceReasons,
      ...(hidden.get(row.recordId) ?? { evidence: false, critic: false }),
    })),
  };
}

/**
 * Past this many delta rows in what a count read, the read folds its dataset's or campaign's deltas
 * into the kept rows: a read sums fewer than this many delta rows, except the first one after a
 * burst of writes nobody read meanwhile, which sums them once and folds them.
 */
const FOLD_AFTER_DELTAS = 1000;

/**
 * The kept counts per mask of a dataset's records or a campaign's non-gold items, in one language or
 * all: the kept rows plus the delta rows the triggers inserted since their last fold, summed in one
 * statement (one snapshot, so a fold committing meanwhile is seen whole or not at all). When the read
 * summed many delta rows it folds them (functions/verity_fold_evidence_counts.sql,
 * functions/verity_fold_campaign_evidence_counts.sql), which a concurrent fold skips and a failure of
 * leaves the counts right, so the read answers either way.
 */
async function keptPerMask({
  datasetId,
  campaignId,
  language,
}: {
  datasetId: string;
  campaignId?: string;
  language?: string;
}): Promise<{ reasons: number; n: number }[]> {
  const only = language ?? null;
  const rows = campaignId
    ? await prisma().$queryRaw<{ reasons: number; n: number; deltas: number }[]>`
        SELECT reasons, sum(n)::int AS n, sum(deltas)::int AS deltas FROM (
          SELECT reasons, items AS n, 0 AS deltas FROM "CampaignEvidenceCount"
           WHERE "campaignId" = ${campaignId} AND (${only}::text IS NULL OR language = ${only}::text)
          UNION ALL
          SELECT reasons, delta, 1 FROM "CampaignEvidenceCountDelta"
           WHERE "campaignId" = ${campaignId} AND (${only}::text IS NULL OR language = ${only}::text)
        ) kept GROUP BY reasons`
    : await prisma().$queryRaw<{ reasons: number; n: number; deltas: number }[]>`
        SELECT reasons, sum(n)::int AS n, sum(deltas)::int AS deltas FROM (
          SELECT reasons, records AS n, 0 AS deltas FROM "EvidenceCount"
           WHERE "datasetId" = ${datasetId} AND (${only}::text IS NULL OR language = ${only}::text)
          UNION ALL
          SELECT reasons, delta, 1 FROM "EvidenceCountDelta"
           WHERE "datasetId" = ${datasetId} AND (${only}::text IS NULL OR language = ${only}::text)
        ) kept GROUP BY reasons`;
  if (rows.reduce((sum, row) => sum + row.deltas, 0) >= FOLD_AFTER_DELTAS) {
    // Writes "EvidenceCount" or "CampaignEvidenceCount" and deletes their deltas; no trigger runs.
    const fold = campaignId
      ? prisma().$queryRaw`SELECT verity_fold_campaign_evidence_counts(${campaignId})`
      : prisma().$queryRaw`SELECT verity_fold_evidence_counts(${datasetId})`;
    await fold.catch((error: unknown) => console.warn("Folding the kept evidence counts failed:", error));
  }
  return rows.map(({ reasons, n }) => ({ reasons, n }));
}
