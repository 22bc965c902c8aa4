import "server-only";

import { type AggregationRule, type FinalLabel, finalLabel } from "@/lib/metrics";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import { recordTitle } from "@/lib/records/title";

import { writeAudit } from "./audit";
import { getCampaign } from "./campaigns";
import { countUnreadComments } from "./comments";
import { prisma } from "./client";
import { recordViewSelect } from "./records";
import { criticAsSeen, criticHiddenRecordIds } from "./visibility";

/** Everything the final label and the review queues need about one item, loaded in one query. */
export type ItemEvidence = {
  itemId: string;
  recordId: number;
  language: string;
  position: number;
  labels: {
    userId: string;
    valid: boolean;
    categories: string[];
    needsReview: boolean;
    activeMs: number;
    updatedAt: Date;
  }[];
  adjudication: { valid: boolean; categories: string[] } | null;
  criticPass: boolean | null;
  criticFailedRules: string[];
  executableValid: boolean | null;
};

export type ItemOutcome = ItemEvidence & { final: FinalLabel };

export const QUEUES = ["annotators", "critic", "execution", "flagged"] as const;
export type QueueName = (typeof QUEUES)[number];

/** Loads the evidence of every labelled item of a campaign (items nobody labelled, and gold items, are left out). */
export async function loadCampaignEvidence(campaignId: string): Promise<ItemEvidence[]> {
  const rows = await prisma().$queryRaw<
    {
      itemId: string;
      recordId: number;
      language: string;
      position: number;
      labels: {
        userId: string;
        valid: boolean;
        categories: string[];
        needsReview: boolean;
        activeMs: number;
        updatedAt: string;
      }[];
      adjValid: boolean | null;
      adjCategories: string[] | null;
      criticPass: boolean | null;
      criticFailedRules: string[] | null;
      executableValid: boolean | null;
    }[]
  >`
    SELECT i.id AS "itemId", i."recordId", i.language, i.position,
           json_agg(json_build_object('userId', a."userId", 'valid', a.valid, 'categories', a.categories, 'needsReview', a."needsReview", 'activeMs', a."activeMs", 'updatedAt', a."updatedAt") ORDER BY a."createdAt") AS labels,
           adj.valid AS "adjValid", adj.categories AS "adjCategories",
           c."overallPass" AS "criticPass", c."failedRules" AS "criticFailedRules", r."executableValid"
    FROM "CampaignItem" i
    JOIN "Annotation" a ON a."itemId" = i.id
    JOIN "Record" r ON r.id = i."recordId"
    LEFT JOIN "CriticVerdict" c ON c."recordId" = i."recordId"
    LEFT JOIN "Adjudication" adj ON adj."itemId" = i.id
    WHERE i."campaignId" = ${campaignId} AND NOT i.gold -- gold items only measure annotators
    GROUP BY i.id, adj.valid, adj.categories, c."overallPass", c."failedRules", r."executableValid"
    ORDER BY i.position`;
  return rows.map((row) => ({
    itemId: row.itemId,
    recordId: row.recordId,
    language: row.language,
    position: row.position,
    labels: row.labels.map((label) => ({ ...label, updatedAt: new Date(label.updatedAt) })),
    adjudication: row.adjValid === null ? null : { valid: row.adjValid, categories: row.adjCategories ?? [] },
    criticPass: row.criticPass,
    criticFailedRules: row.criticFailedRules ?? [],
    executableValid: row.executableValid,
  }));
}

/** Final labels of a campaign's labelled items under its rule. */
export async function computeOutcomes(
  campaignId: string,
): Promise<{ rule: AggregationRule; outcomes: ItemOutcome[]; invalidatingKeys: Set<string> }> {
  const campaign = await prisma().campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: { finalRule: true, categories: { select: { key: true, invalidating: true } } },
  });
  const rule = campaign.finalRule as AggregationRule;
  const invalidatingKeys = new Set(
    campaign.categories.filter((category) => category.invalidating).map((category) => category.key),
  );
  const evidence = await loadCampaignEvidence(campaignId);
  return {
    rule,
    invalidatingKeys,
    outcomes: evidence.map((item) => ({
      ...item,
      final: finalLabel({ rule, labels: item.labels, adjudication: item.adjudication, invalidatingKeys }),
    })),
  };
}

/** Why an item belongs in each review queue (empty when it needs no review). Pure. */
export function queueReasons(item: ItemOutcome): Partial<Record<QueueName, string>> {
  if (item.adjudication) return {};
  const reasons: Partial<Record<QueueName, string>> = {};
  const valids = item.labels.map((label) => label.valid);
  if (valids.includes(true) && valids.includes(false))
    reasons.annotators = `${valids.filter(Boolean).length} valid vs ${valids.filter((v) => !v).length} invalid`;
  const human = item.final.valid;
  if (human !== null && item.criticPass !== null && human !== item.criticPass)
    reasons.critic = `humans say ${human ? "valid" : "invalid"}, the critic ${item.criticPass ? "passes" : "fails"} it`;
  if (human === true && item.executableValid === false)
    reasons.execution = "labelled valid, but the canonical solution fails its own tests";
  if (human === false && item.executableValid === true && item.criticPass === true)
    reasons.execution = "labelled invalid, but the tests pass and the critic passes it";
  if (item.labels.some((label) => label.needsReview)) reasons.flagged = "an annotator asked for review";
  return reasons;
}

export type QueueFilters = { queue?: QueueName; language?: string; annotatorId?: string; category?: string };

/**
 * The review queues of a campaign: items needing a reviewer, most reasons first, then campaign
 * order, with counts per queue. Scope: reviews:write.
 */
export async function listReviewQueue({
  actor,
  campaignId,
  filters,
}: {
  actor: Actor;
  campaignId: string;
  filters: QueueFilters;
}) {
  assertCan(actor, "reviews:write");
  await getCampaign({ actor, campaignId });
  const [{ outcomes: all }, hidden] = await Promise.all([
    computeOutcomes(campaignId),
    criticHiddenRecordIds({ actor, campaignId }),
  ]);
  // A critic hidden from the reviewer (they hold the item, blind) must not show through a queue either.
  const outcomes = all.map((item) =>
    hidden.has(item.recordId) ? { ...item, criticPass: null, criticFailedRules: [] } : item,
  );
  const counts: Record<QueueName, number> = { annotators: 0, critic: 0, execution: 0, flagged: 0 };
  const items = [];
  for (const item of outcomes) {
    const reasons = queueReasons(item);
    const names = Object.keys(reasons) as QueueName[];
    if (names.length === 0) continue;
    if (filters.language && item.language !== filters.language) continue;
    if (filters.annotatorId && !item.labels.some((label) => label.userId === filters.annotatorId)) continue;
    if (filters.category && !item.labels.some((label) => label.categories.includes(filters.category!))) continue;
    for (const name of names) counts[name] += 1;
    if (filters.queue && !reasons[filters.queue]) continue;
    items.push({
      itemId: item.itemId,
      recordId: item.recordId,
      language: item.language,
      position: item.position,
      reasons,
      final: item.final,
      labels: item.labels.length,
      votes: item.labels,
    });
  }
  items.sort((a, b) => Object.keys(b.reasons).length - Object.keys(a.reasons).length || a.position - b.position);
  const [{ titles, names }, unread] = await Promise.all([
    loadQueueNames(items),
    countUnreadComments({ actor, itemIds: items.map((item) => item.itemId) }),
  ]);
  return {
    counts,
    items: items.map(({ votes, ...item }) => ({
      ...item,
      title: titles.get(item.recordId) ?? "Untitled",
      unreadComments: unread.get(item.itemId) ?? 0,
      votes: votes.map((vote) => ({
        annotator: names.get(vote.userId) ?? "a deleted user",
        valid: vote.valid,
        categories: vote.categories,
      })),
    })),
  };
}

/** Problem titles and annotator names for queue rows, so a reviewer sees "who said what about which problem". */
async function loadQueueNames(items: { recordId: number; votes: { userId: string }[] }[]) {
  const recordIds = items.map((item) => item.recordId);
  const userIds = [...new Set(items.flatMap((item) => item.votes.map((vote) => vote.userId)))];
  const [records, users] = await Promise.all([
    // Only the statement's opening is needed for a title; statements can be long.
    prisma().$queryRaw<
      { id: number; head: string }[]
    >`SELECT id, left(question, 2000) AS head FROM "Record" WHERE id = ANY(${recordIds}::int[])`,
    prisma().user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true, name: true } }),
  ]);
  return {
    titles: new Map(records.map((record) => [record.id, recordTitle(record.head)])),
    names: new Map(users.map((user) => [user.id, user.name ?? user.email])),
  };
}

/**
 * Records or revises the reviewer's decision on an item. The first decision is an insert that only
 * one reviewer can win; a revision is a conditional update on the revision the reviewer saw. The
 * loser gets CONFLICT with the decision that stands. Audited in the same transaction. Scope: reviews:write.
 */
export async function adjudicateItem({
  actor,
  itemId,
  input,
}: {
  actor: Actor;
  itemId: string;
  input: { valid: boolean; categories: string[]; reason: string; baseRevision?: number };
}) {
  assertCan(actor, "reviews:write");
  return prisma().$transaction(async (tx) => {
    const item = await tx.campaignItem.findUnique({
      where: { id: itemId },
      select: { id: true, gold: true, campaign: { select: { categories: { select: { key: true } } } } },
    });
    if (!item) throw new AppError("NOT_FOUND", "No such item.");
    // A gold item's verdict is its gold answer, and its labels count in no final label: a decision
    // on it would change nothing, so none is taken.
    if (item.gold)
      throw new AppError(
        "CONFLICT",
        "This is a gold item: it is not adjudicated. Its known verdict is the record's gold answer; change that on the record page.",
      );
    const known = new Set(item.campaign.categories.map((category) => category.key));
    const unknown = input.categories.filter((key) => !known.has(key));
    if (unknown.length)
      throw new AppError("INVALID_INPUT", `Unknown error categories: ${unknown.join(", ")}.`, {
        categories: [`Unknown: ${unknown.join(", ")}`],
      });
    const decision = { valid: input.valid, categories: [...new Set(input.categories)], reason: input.reason };
    const current = await tx.adjudication.findUnique({
      where: { itemId },
      select: {
        id: true,
        revision: true,
        valid: true,
        categories: true,
        reason: true,
        reviewer: { select: { email: true } },
      },
    });
    const conflict = (stands: NonNullable<typeof current>) =>
      new AppError(
        "CONFLICT",
        `${stands.reviewer.email} already decided this item (${stands.valid ? "valid" : "invalid"}: ${stands.reason}). Reload to see it, then revise if you disagree.`,
      );

    if (!current) {
      const inserted = await tx.$executeRaw`
        INSERT INTO "Adjudication" (id, "itemId", "reviewerId", valid, categories, reason, revision, "updatedAt")
        VALUES (${"adj_" + crypto.randomUUID()}, ${itemId}, ${actor.id}, ${decision.valid}, ${decision.categories}::text[], ${decision.reason}, 1, now())
        ON CONFLICT ("itemId") DO NOTHING`;
      if (inserted !== 1) {
        const winner = await tx.adjudication.findUniqueOrThrow({
          where: { itemId },
          select: {
            id: true,
            revision: true,
            valid: true,
            categories: true,
            reason: true,
            reviewer: { select: { email: true } },
          },
        });
        throw conflict(winner);
      }
      const created = await tx.adjudication.findUniqueOrThrow({ where: { itemId }, select: { id: true } });
      await tx.adjudicationRevision.create({
        data: { adjudicationId: created.id, revision: 1, reviewerId: actor.id, ...decision },
      });
      await writeAudit(tx, {
        actorId: actor.id,
        action: "adjudication.create",
        targetType: "CampaignItem",
        targetId: itemId,
        after: decision,
      });
      return { id: created.id, revision: 1, ...decision };
    }
    if (input.baseRevision === undefined || input.baseRevision !== current.revision) throw conflict(current);
    const revision = current.revision + 1;
    const updated = await tx.adjudication.updateMany({
      where: { id: current.id, revision: current.revision },
      data: { ...decision, reviewerId: actor.id, revision },
    });
    if (updated.count !== 1) throw conflict(current);
    await tx.adjudicationRevision.create({
      data: { adjudicationId: current.id, revision, reviewerId: actor.id, ...decision },
    });
    await writeAudit(tx, {
      actorId: actor.id,
      action: "adjudication.revise",
      targetType: "CampaignItem",
      targetId: itemId,
      before: { valid: current.valid, categories: current.categories, reason: current.reason },
      after: { ...decision, revision },
    });
    return { id: current.id, revision, ...decision };
  });
}

/**
 * The adjudication view's data: the record, the critic, every annotation with who, label,
 * categories, note, active time and attached runs, and the decision with its history. The critic is
 * left out while blind mode hides it from the reviewer (visibility.ts). Scope: reviews:write.
 */
export async function getReviewItem({ actor, itemId }: { actor: Actor; itemId: string }) {
  assertCan(actor, "reviews:write");
  const item = await prisma().campaignItem.findUnique({
    where: { id: itemId },
    select: {
      id: true,
      language: true,
      campaign: {
        select: {
          id: true,
          name: true,
          finalRule: true,
          categories: { orderBy: { position: "asc" }, select: { key: true, label: true, invalidating: true } },
        },
      },
      record: { select: recordViewSelect },
      annotations: {
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          valid: true,
          categories: true,
          note: true,
          testLine: true,
          needsReview: true,
          activeMs: true,
          revision: true,
          preRevealValid: true,
          updatedAt: true,
          user: { select: { email: true, name: true } },
          runs: {
            orderBy: { createdAt: "asc" },
            select: { id: true, kind: true, outcome: true, exitCode: true, timeMs: true, createdAt: true },
          },
        },
      },
      adjudication: {
        select: {
          revision: true,
          valid: true,
          categories: true,
          reason: true,
          updatedAt: true,
          reviewer: { select: { email: true } },
          revisions: {
            orderBy: { revision: "desc" },
            select: { revision: true, valid: true, categories: true, reason: true, createdAt: true, reviewerId: true },
          },
        },
      },
    },
  });
  if (!item) throw new AppError("NOT_FOUND", "No such item.");
  const hidden = await criticHiddenRecordIds({ actor, recordIds: [item.record.id] });
  const { critic: stored, ...record } = item.record;
  const critic = criticAsSeen(stored, hidden.has(item.record.id));
  return {
    ...item,
    record: {
      ...record,
      critic: critic
        ? { ...critic, rules: critic.rules as { rule: string; passed: boolean | null; reason: string }[] }
        : null,
    },
  };
}
