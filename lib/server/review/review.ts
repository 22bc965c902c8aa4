import "server-only";

import { storedCriticRules } from "@/lib/records/critic";
import type { Prisma } from "@/lib/generated/prisma/client";
import { type FinalLabel } from "@/lib/metrics";
import { recordTitle } from "@/lib/records/title";
import { queueReasons } from "@/lib/review/queue-reasons";
import { type QueueCursor, type QueueName, QUEUES } from "@/lib/review/queues";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import { writeAudit } from "@/lib/server/audit/audit";
import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { countUnreadComments } from "@/lib/server/comments/comments";
import { prisma } from "@/lib/server/db/client";
import { finalLabelsOf, toFinalLabel } from "@/lib/server/review/final-labels";
import { recordViewSelect } from "@/lib/server/records/records";
import { criticAsSeen, criticHiddenRecordIds } from "@/lib/server/auth/visibility";

export type QueueFilters = { queue?: QueueName; language?: string; annotatorId?: string; category?: string };

/** Rows of a review queue page; more is `nextCursor`. */
const QUEUE_PAGE_SIZE = 50;

/** A queue's bit in an item's reasons mask (`verity_review_reasons`, migration 20261201180700_final_labels_kept). */
function queueBit(queue: QueueName): number {
  return 1 << QUEUES.indexOf(queue);
}

/** Numbered SQL parameters, in the order they are named. */
function sqlParams(...initial: unknown[]) {
  const values = [...initial];
  return { values, add: (value: unknown) => `$${values.push(value)}` };
}

/**
 * The items of a campaign that need a reviewer under `filters` (except the queue filter), with the
 * mask of queues each is in and how many: the CTE `queued`. Which queues an item is in is decided by
 * `verity_review_reasons` in SQL and kept on the item, so a page and the counts read the queue index
 * (campaign, reasons DESC, position). A critic hidden from the reviewer (`hidden`: blind items they
 * hold) must not show through a queue: those few items are decided again with no critic.
 */
function queuedSql(
  filters: QueueFilters,
  campaign: string,
  hidden: string | null,
  add: (value: unknown) => string,
): string {
  const where: string[] = [];
  if (filters.language) where.push(`f.language = ${add(filters.language)}`);
  if (filters.annotatorId)
    where.push(
      `EXISTS (SELECT 1 FROM "Annotation" a WHERE a."itemId" = f.item_id AND a."userId" = ${add(filters.annotatorId)})`,
    );
  if (filters.category)
    where.push(
      `EXISTS (SELECT 1 FROM "Annotation" a WHERE a."itemId" = f.item_id AND ${add(filters.category)} = ANY(a.categories))`,
    );
  const columns = `f.item_id, f.record_id, f.language, f."position", f.n, f.n_valid, f.final_valid, f.exec_valid`;
  // The campaign also as a plain equality: then the queue index's order is the queue's order.
  const relation = finalLabelsOf(`ARRAY[${campaign}]::text[]`);
  const visible = `
      SELECT ${columns}, f.critic_pass AS crit, f.review_reasons AS reasons, f.review_reason_count AS reason_count
      FROM ${relation} f
      WHERE ${[`f.campaign_id = ${campaign}`, "f.review_reason_count > 0", ...(hidden ? [`NOT (f.record_id = ANY(${hidden}))`] : []), ...where].join(" AND ")}`;
  if (!hidden) return `queued AS NOT MATERIALIZED (${visible})`;
  return `queued AS NOT MATERIALIZED (${visible}
      UNION ALL
      SELECT h.*, verity_reason_count(h.reasons) FROM (
        SELECT ${columns}, NULL::boolean AS crit,
               verity_review_reasons(f.n, f.n_valid, f.adj_valid, f.final_valid, NULL, f.exec_valid, f.flagged) AS reasons
        FROM ${relation} f WHERE ${[`f.campaign_id = ${campaign}`, `f.record_id = ANY(${hidden})`, ...where].join(" AND ")}
      ) h WHERE h.reasons > 0
    )`;
}

type QueuedRow = {
  item_id: string;
  record_id: number;
  language: string;
  position: number;
  n: number;
  n_valid: number;
  final_valid: boolean | null;
  crit: boolean | null;
  exec_valid: boolean | null;
  reasons: number;
  reason_count: number;
};

/** The reasons, in words, of a queued row. */
function reasonsOf(row: QueuedRow) {
  return queueReasons(
    {
      n: row.n,
      nValid: row.n_valid,
      finalValid: row.final_valid,
      criticPass: row.crit,
      executableValid: row.exec_valid,
    },
    QUEUES.filter((queue) => (row.reasons & queueBit(queue)) !== 0),
  );
}

/** The scope check every queue read starts with, and the SQL parameters: the campaign, and the hidden-critic records if any. */
async function queueScope(actor: Actor, campaignId: string) {
  assertCan(actor, "reviews:write");
  await getCampaign({ actor, campaignId });
  // A critic hidden from the reviewer (they hold the item, blind) must not show through a queue either.
  const hiddenIds = [...(await criticHiddenRecordIds({ actor, campaignId }))];
  const params = sqlParams();
  const campaign = params.add(campaignId);
  const hidden = hiddenIds.length ? `${params.add(hiddenIds)}::int[]` : null;
  return { params, campaign, hidden };
}

/** Rows of `queued` in the queue filter, as SQL. */
function listedWhere(filters: QueueFilters): string {
  return filters.queue ? `(q.reasons & ${queueBit(filters.queue)}) <> 0` : "true";
}

/**
 * A page of a campaign's review queues: items needing a reviewer, most reasons first, then campaign
 * order, from `cursor` on (keyset: the page costs the same wherever it starts), with counts per
 * queue under the filters. Scope: reviews:write (the campaign visible to the actor).
 */
export async function listReviewQueue({
  actor,
  campaignId,
  filters,
  cursor = null,
  limit = QUEUE_PAGE_SIZE,
}: {
  actor: Actor;
  campaignId: string;
  filters: QueueFilters;
  cursor?: QueueCursor | null;
  limit?: number;
}) {
  const { params, campaign, hidden } = await queueScope(actor, campaignId);
  const queued = queuedSql(filters, campaign, hidden, params.add);
  const listed = listedWhere(filters);
  const take = params.add(limit + 1);
  // After the cursor: the rest of its reason count, then the fewer-reason items; each part is one range of the index.
  const page = cursor
    ? (() => {
        const reasons = params.add(cursor.reasons);
        const position = params.add(cursor.position);
        return `(SELECT * FROM queued q WHERE ${listed} AND q.reason_count = ${reasons}::int AND q."position" > ${position}::int
                 ORDER BY q."position" LIMIT ${take}::int)
                UNION ALL
                (SELECT * FROM queued q WHERE ${listed} AND q.reason_count < ${reasons}::int
                 ORDER BY q.reason_count DESC, q."position" LIMIT ${take}::int)
                ORDER BY reason_count DESC, "position" LIMIT ${take}::int`;
      })()
    : `SELECT * FROM queued q WHERE ${listed} ORDER BY q.reason_count DESC, q."position" LIMIT ${take}::int`;
  const [result] = await prisma().$queryRawUnsafe<{ counts: Record<QueueName, number>; page: QueuedRow[] | null }[]>(
    `WITH ${queued}
     SELECT (SELECT json_build_object(${QUEUES.map((queue) => `'${queue}', count(*) FILTER (WHERE (reasons & ${queueBit(queue)}) <> 0)`).join(", ")}) FROM queued) AS counts,
            (SELECT json_agg(p ORDER BY p.reason_count DESC, p."position") FROM (${page}) p) AS page`,
    ...params.values,
  );
  const rows = result.page ?? [];
  const pageRows = rows.slice(0, limit);
  const last = pageRows[pageRows.length - 1];
  const nextCursor = rows.length > limit && last ? { reasons: last.reason_count, position: last.position } : null;
  const [details, unread] = await Promise.all([
    loadQueueDetails(
      campaignId,
      pageRows.map((row) => row.item_id),
    ),
    countUnreadComments({ actor, itemIds: pageRows.map((row) => row.item_id) }),
  ]);
  return {
    counts: result.counts,
    nextCursor,
    items: pageRows.map((row) => {
      const detail = details.get(row.item_id)!;
      return {
        itemId: row.item_id,
        recordId: row.record_id,
        language: row.language,
        position: row.position,
        reasons: reasonsOf(row),
        final: detail.final,
        labels: row.n,
        title: detail.title,
        unreadComments: unread.get(row.item_id) ?? 0,
        votes: detail.votes,
      };
    }),
  };
}

/**
 * Where an item sits in the review queue under `filters` (its position and reasons, or null once it
 * has left the queue) with the items before and after it (the queue's first when it has left), by
 * the queue's keyset order. Scope: reviews:write.
 */
export async function getQueueNeighbours({
  actor,
  campaignId,
  itemId,
  filters,
}: {
  actor: Actor;
  campaignId: string;
  itemId: string;
  filters: QueueFilters;
}) {
  const { params, campaign, hidden } = await queueScope(actor, campaignId);
  const queued = queuedSql(filters, campaign, hidden, params.add);
  const listed = listedWhere(filters);
  const item = params.add(itemId);
  // Each neighbour is the nearest row of its own reason count, else the nearest of the next count:
  // two ranges of the queue index, never a walk from the queue's start.
  const [row] = await prisma().$queryRawUnsafe<
    {
      total: number;
      current: QueuedRow | null;
      before: number | null;
      previous: string | null;
      next: string | null;
      first: string | null;
    }[]
  >(
    `WITH ${queued},
     current AS MATERIALIZED (SELECT * FROM queued q WHERE q.item_id = ${item} AND ${listed})
     SELECT (SELECT count(*)::int FROM queued q WHERE ${listed}) AS total,
            (SELECT row_to_json(c) FROM current c) AS current,
            (SELECT count(*)::int FROM queued q, current c WHERE ${listed}
               AND (q.reason_count > c.reason_count OR (q.reason_count = c.reason_count AND q."position" < c."position"))) AS before,
            coalesce(
              (SELECT q.item_id FROM queued q, current c WHERE ${listed} AND q.reason_count = c.reason_count AND q."position" < c."position"
                ORDER BY q."position" DESC LIMIT 1),
              (SELECT q.item_id FROM queued q, current c WHERE ${listed} AND q.reason_count > c.reason_count
                ORDER BY q.reason_count, q."position" DESC LIMIT 1)) AS previous,
            coalesce(
              (SELECT q.item_id FROM queued q, current c WHERE ${listed} AND q.reason_count = c.reason_count AND q."position" > c."position"
                ORDER BY q."position" LIMIT 1),
              (SELECT q.item_id FROM queued q, current c WHERE ${listed} AND q.reason_count < c.reason_count
                ORDER BY q.reason_count DESC, q."position" LIMIT 1)) AS next,
            (SELECT q.item_id FROM queued q WHERE ${listed} ORDER BY q.reason_count DESC, q."position" LIMIT 1) AS first`,
    ...params.values,
  );
  return {
    total: row.total,
    position: row.current ? (row.before ?? 0) + 1 : null,
    reasons: row.current ? reasonsOf(row.current) : {},
    previousItemId: row.current ? row.previous : null,
    nextItemId: row.current ? row.next : row.first,
  };
}

/** Final labels, problem titles and who said what, for the rows of one queue page. */
async function loadQueueDetails(campaignId: string, itemIds: string[]) {
  if (itemIds.length === 0) return new Map<string, never>();
  const rows = await prisma().$queryRawUnsafe<
    {
      item_id: string;
      final_valid: boolean | null;
      decided_by: string | null;
      final_categories: string[];
      head: string;
      votes: { userId: string; valid: boolean; categories: string[] }[];
    }[]
  >(
    // Only the statement's opening is needed for a title; statements can be long.
    `SELECT f.item_id, f.final_valid, f.decided_by, f.final_categories, left(r.question, 2000) AS head,
            (SELECT json_agg(json_build_object('userId', a."userId", 'valid', a.valid, 'categories', a.categories) ORDER BY a."createdAt")
               FROM "Annotation" a WHERE a."itemId" = f.item_id) AS votes
     FROM ${finalLabelsOf("ARRAY[$1]::text[]")} f JOIN "Record" r ON r.id = f.record_id
     WHERE f.item_id = ANY($2::text[])`,
    campaignId,
    itemIds,
  );
  const userIds = [...new Set(rows.flatMap((row) => row.votes.map((vote) => vote.userId)))];
  const users = await prisma().user.findMany({
    where: { id: { in: userIds } },
    select: { id: true, email: true, name: true },
  });
  const names = new Map(users.map((user) => [user.id, user.name ?? user.email]));
  return new Map(
    rows.map((row) => [
      row.item_id,
      {
        final: toFinalLabel(row) satisfies FinalLabel,
        title: recordTitle(row.head),
        votes: row.votes.map((vote) => ({
          annotator: names.get(vote.userId) ?? "a deleted user",
          valid: vote.valid,
          categories: vote.categories,
        })),
      },
    ]),
  );
}

/**
 * The people who labelled a campaign's counted items, for the review page's annotator filter: the
 * (campaign, annotator) rows a trigger keeps with every label. Scope: reviews:write.
 */
export async function listCampaignAnnotators({ actor, campaignId }: { actor: Actor; campaignId: string }) {
  assertCan(actor, "reviews:write");
  await getCampaign({ actor, campaignId });
  return prisma().$queryRaw<{ userId: string; email: string; name: string | null }[]>`
    SELECT u.id AS "userId", u.email, u.name FROM "CampaignAnnotator" k JOIN "User" u ON u.id = k."userId"
    WHERE k."campaignId" = ${campaignId} AND k.labels > 0
    ORDER BY coalesce(u.name, u.email), u.email`;
}

/** The revision a record's content is at now, for the decision made on it. */
async function currentRecordRevision(tx: Prisma.TransactionClient, itemId: string): Promise<number> {
  const item = await tx.campaignItem.findUniqueOrThrow({
    where: { id: itemId },
    select: { record: { select: { revision: true } } },
  });
  return item.record.revision;
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
      // SQL rules run by this insert (prisma/sql): triggers/Adjudication.Adjudication_keep_final_labels_insert.sql,
      // running functions/verity_adjudications_changed.sql (the item's kept final label); a final label that
      // moves runs triggers/CampaignItem.CampaignItem_note_changes_update.sql (verity_note_item_changes.sql).
      const inserted = await tx.$executeRaw`
        INSERT INTO "Adjudication" (id, "itemId", "reviewerId", valid, categories, reason, revision, "recordRevision", "updatedAt")
        VALUES (${"adj_" + crypto.randomUUID()}, ${itemId}, ${actor.id}, ${decision.valid}, ${decision.categories}::text[], ${decision.reason}, 1,
                (SELECT r.revision FROM "CampaignItem" i JOIN "Record" r ON r.id = i."recordId" WHERE i.id = ${itemId}), now())
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
    // SQL rules run by this update (prisma/sql): triggers/Adjudication.Adjudication_keep_final_labels_update.sql,
    // running functions/verity_adjudications_changed.sql (the item's kept final label); a final label that
    // moves runs triggers/CampaignItem.CampaignItem_note_changes_update.sql (verity_note_item_changes.sql).
    const updated = await tx.adjudication.updateMany({
      where: { id: current.id, revision: current.revision },
      data: { ...decision, reviewerId: actor.id, revision, recordRevision: await currentRecordRevision(tx, itemId) },
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
      critic: critic ? { ...critic, rules: storedCriticRules(critic.rules) } : null,
    },
  };
}
