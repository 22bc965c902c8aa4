import "server-only";

import { criticExecutionDisagreement, EVIDENCE_REASONS, type EvidenceReason } from "@/lib/evidence/suspicion";
import type { Prisma } from "@/lib/generated/prisma/client";
import { recordTitle } from "@/lib/records/title";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { prisma } from "@/lib/server/db/client";
import { countEvidenceReasons, evidenceReasonItemWhere } from "@/lib/server/evidence/reasons";

// The review page's evidence queues: a campaign's items whose record the automatic evidence points at
// (weak tests, flaky, solved by no model, critic and execution disagree), labelled or not, in
// campaign order. Membership depends on the record alone: the item carries its record's mask of
// reasons (CampaignItem.evidenceReasons, kept by triggers) and is read through the same conditions as
// the dataset's filters (lib/server/evidence/reasons.ts); the counts add up the campaign's kept counts
// per mask. Gold items are never listed nor counted: they only measure annotators.

const EVIDENCE_QUEUE_PAGE_SIZE = 50;

export type EvidenceQueueFilters = { reason: EvidenceReason; weakBelow?: number; language?: string };

/** The items of the campaign in one reason under the filters, as a where clause. */
async function queueItemWhere(
  actor: Actor,
  campaignId: string,
  filters: Omit<EvidenceQueueFilters, "reason">,
  reason: EvidenceReason,
): Promise<Prisma.CampaignItemWhereInput> {
  return {
    campaignId,
    gold: false,
    ...(filters.language ? { language: filters.language } : {}),
    ...(await evidenceReasonItemWhere({ actor, reason, weakBelow: filters.weakBelow })),
  };
}

/** The scope check every evidence-queue read starts with: a reviewer, on a campaign they see. */
async function evidenceQueueScope(actor: Actor, campaignId: string) {
  assertCan(actor, "reviews:write");
  await getCampaign({ actor, campaignId });
}

/** What a row says about why it is in the queue, in words. Pure. */
function evidenceNote(
  reason: EvidenceReason,
  record: {
    mutationScore: number | null;
    flaky: boolean | null;
    executableValid: boolean | null;
    criticPass: boolean | null;
    solvers: { total: number; solved: number };
  },
): string {
  switch (reason) {
    case "weak_tests":
      return `The tests reject ${Math.round((record.mutationScore ?? 0) * 100)}% of the mutants of the canonical solution.`;
    case "flaky":
      return "Repeated runs of the tests gave different outcomes.";
    case "unsolved":
      return `None of the ${record.solvers.total} solver ${record.solvers.total === 1 ? "model" : "models"} passed the tests.`;
    case "critic_vs_execution":
      return criticExecutionDisagreement(record) === "critic-pass-execution-failed"
        ? "The critic passed it, but the canonical solution fails its tests."
        : "The critic failed it, but the canonical solution passes its tests.";
  }
}

/**
 * A page of one evidence queue of a campaign — its items whose record is in `reason`, in campaign
 * order from the position `cursor` on (keyset on the (campaign, position) order) — with the count of
 * every evidence queue under the same language filter. Scope: reviews:write (the campaign visible to
 * the actor); records whose evidence or critic is hidden from the reviewer are left out.
 */
export async function listEvidenceQueue({
  actor,
  campaignId,
  filters,
  cursor = null,
  limit = EVIDENCE_QUEUE_PAGE_SIZE,
}: {
  actor: Actor;
  campaignId: string;
  filters: EvidenceQueueFilters;
  cursor?: number | null;
  limit?: number;
}) {
  await evidenceQueueScope(actor, campaignId);
  const where = await queueItemWhere(actor, campaignId, filters, filters.reason);
  const [rows, counts] = await Promise.all([
    prisma().campaignItem.findMany({
      where: cursor === null ? where : { ...where, position: { gt: cursor } },
      orderBy: { position: "asc" },
      take: limit + 1,
      select: {
        id: true,
        recordId: true,
        language: true,
        position: true,
        labelCount: true,
        finalValid: true,
        record: {
          select: {
            question: true,
            mutationScore: true,
            flaky: true,
            executableValid: true,
            critic: { select: { overallPass: true } },
          },
        },
      },
    }),
    countQueues(actor, campaignId, filters),
  ]);
  const page = rows.slice(0, limit);
  const solvers = await solverCounts(page.map((row) => row.recordId));
  return {
    counts,
    nextCursor: rows.length > limit ? page[page.length - 1].position : null,
    items: page.map((row) => ({
      itemId: row.id,
      recordId: row.recordId,
      language: row.language,
      position: row.position,
      title: recordTitle(row.record.question.slice(0, 2000)),
      labels: row.labelCount,
      finalValid: row.finalValid,
      why: evidenceNote(filters.reason, {
        mutationScore: row.record.mutationScore,
        flaky: row.record.flaky,
        executableValid: row.record.executableValid,
        criticPass: row.record.critic?.overallPass ?? null,
        solvers: solvers.get(row.recordId) ?? { total: 0, solved: 0 },
      }),
    })),
  };
}

/** How many items each evidence queue holds under the filters (a count per queue), from the kept counts. */
async function countQueues(
  actor: Actor,
  campaignId: string,
  filters: Omit<EvidenceQueueFilters, "reason">,
): Promise<Record<EvidenceReason, number>> {
  const campaign = await prisma().campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: { datasetId: true },
  });
  return countEvidenceReasons({
    actor,
    datasetId: campaign.datasetId,
    campaignId,
    reasons: EVIDENCE_REASONS,
    language: filters.language,
    weakBelow: filters.weakBelow,
  });
}

/**
 * How many of a campaign's items each evidence queue holds, under the language filter and the
 * weak-tests threshold, for the review page's tabs. Scope: reviews:write.
 */
export async function countEvidenceQueues({
  actor,
  campaignId,
  filters,
}: {
  actor: Actor;
  campaignId: string;
  filters: Omit<EvidenceQueueFilters, "reason">;
}): Promise<Record<EvidenceReason, number>> {
  await evidenceQueueScope(actor, campaignId);
  return countQueues(actor, campaignId, filters);
}

/** Solutions that ran and that passed, per record (a page's worth). */
async function solverCounts(recordIds: number[]): Promise<Map<number, { total: number; solved: number }>> {
  if (recordIds.length === 0) return new Map();
  const rows = await prisma().solution.groupBy({
    by: ["recordId", "passed"],
    where: { recordId: { in: recordIds }, passed: { not: null } },
    _count: { _all: true },
  });
  const counts = new Map<number, { total: number; solved: number }>();
  for (const row of rows) {
    const entry = counts.get(row.recordId) ?? { total: 0, solved: 0 };
    entry.total += row._count._all;
    if (row.passed) entry.solved += row._count._all;
    counts.set(row.recordId, entry);
  }
  return counts;
}

/**
 * Where an item sits in an evidence queue (1-based, or null when its record is not in it), the queue's
 * length and the items before and after it in campaign order (the queue's first when it is not in
 * it), for walking the queue from the adjudication page. Scope: reviews:write.
 */
export async function getEvidenceQueueNeighbours({
  actor,
  campaignId,
  itemId,
  filters,
}: {
  actor: Actor;
  campaignId: string;
  itemId: string;
  filters: EvidenceQueueFilters;
}) {
  await evidenceQueueScope(actor, campaignId);
  const where = await queueItemWhere(actor, campaignId, filters, filters.reason);
  const item = await prisma().campaignItem.findFirst({
    where: { id: itemId, campaignId },
    select: { position: true },
  });
  if (!item) throw new AppError("NOT_FOUND", "No such item.");
  const isQueued = (await prisma().campaignItem.count({ where: { ...where, id: itemId } })) > 0;
  const [total, before, previous, next, first] = await Promise.all([
    prisma().campaignItem.count({ where }),
    prisma().campaignItem.count({ where: { ...where, position: { lt: item.position } } }),
    prisma().campaignItem.findFirst({
      where: { ...where, position: { lt: item.position } },
      orderBy: { position: "desc" },
      select: { id: true },
    }),
    prisma().campaignItem.findFirst({
      where: { ...where, position: { gt: item.position } },
      orderBy: { position: "asc" },
      select: { id: true },
    }),
    prisma().campaignItem.findFirst({ where, orderBy: { position: "asc" }, select: { id: true } }),
  ]);
  return {
    total,
    position: isQueued ? before + 1 : null,
    previousItemId: isQueued ? (previous?.id ?? null) : null,
    nextItemId: isQueued ? (next?.id ?? null) : (first?.id ?? null),
  };
}
