import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, can } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { commentSchema } from "@/lib/validation/comments";

import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import type { CommentList } from "@/lib/comments/types";

/**
 * The thread is visible to whoever may see the item: reviewers and admins (reviews:write), and
 * annotators who hold or held it. Anything else is NOT_FOUND, like a missing item.
 */
async function assertCanSeeItem(actor: Actor, itemId: string): Promise<void> {
  const visible = await prisma().campaignItem.findFirst({
    where: { id: itemId, ...(can(actor, "reviews:write") ? {} : { assignments: { some: { userId: actor.id } } }) },
    select: { id: true },
  });
  if (!visible) throw new AppError("NOT_FOUND", "No such item.");
}

/**
 * An item's comments, oldest first, each marked unread when written by someone else after the actor
 * last read the thread; an annotator sees other annotators' comments only once they have labelled
 * the item. Scope: comments:write.
 */
export async function listComments({ actor, itemId }: { actor: Actor; itemId: string }): Promise<CommentList> {
  assertCan(actor, "comments:write");
  await assertCanSeeItem(actor, itemId);
  // Labels stay independent: until an annotator has labelled the item, other annotators' comments
  // (which may say what they chose) are held back; reviewers' and admins' comments always show.
  const hasLabelled =
    can(actor, "reviews:write") ||
    (await prisma().annotation.findUnique({
      where: { itemId_userId: { itemId, userId: actor.id } },
      select: { id: true },
    })) !== null;
  const [rows, read] = await Promise.all([
    prisma().comment.findMany({
      where: {
        itemId,
        ...(hasLabelled ? {} : { OR: [{ authorId: actor.id }, { author: { role: { not: "ANNOTATOR" } } }] }),
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: {
        id: true,
        body: true,
        createdAt: true,
        authorId: true,
        author: { select: { name: true, email: true } },
      },
    }),
    prisma().commentRead.findUnique({
      where: { itemId_userId: { itemId, userId: actor.id } },
      select: { readAt: true },
    }),
  ]);
  const comments = rows.map((row) => {
    const isMine = row.authorId === actor.id;
    return {
      id: row.id,
      author: row.author.name ?? row.author.email,
      body: row.body,
      createdAt: row.createdAt,
      isMine,
      isUnread: !isMine && (!read || row.createdAt > read.readAt),
    };
  });
  return { comments, unread: comments.filter((comment) => comment.isUnread).length, isHoldingBack: !hasLabelled };
}

/** Adds a comment to an item's thread (audited, so reviewers see it in the campaign's log). Scope: comments:write. */
export async function addComment({
  actor,
  itemId,
  body,
}: {
  actor: Actor;
  itemId: string;
  body: string;
}): Promise<{ id: string }> {
  assertCan(actor, "comments:write");
  const parsed = commentSchema.safeParse({ itemId, body });
  if (!parsed.success)
    throw new AppError("INVALID_INPUT", parsed.error.issues[0]?.message ?? "Invalid comment.", {
      body: parsed.error.issues.map((issue) => issue.message),
    });
  await assertCanSeeItem(actor, itemId);
  return prisma().$transaction(async (tx) => {
    const comment = await tx.comment.create({
      data: { itemId, authorId: actor.id, body: parsed.data.body },
      select: { id: true, createdAt: true },
    });
    await tx.commentRead.upsert({
      where: { itemId_userId: { itemId, userId: actor.id } },
      create: { itemId, userId: actor.id, readAt: comment.createdAt },
      update: { readAt: comment.createdAt },
    });
    await writeAudit(tx, {
      actorId: actor.id,
      action: "comment.create",
      targetType: "CampaignItem",
      targetId: itemId,
      after: { body: parsed.data.body },
    });
    return { id: comment.id };
  });
}

/**
 * Marks an item's thread read for the actor up to `seenUpTo`, the newest comment the page showed
 * them, never back: a request that arrives after a newer answer (a slow network, a busy server) must
 * not mark that answer read unseen. Scope: comments:write.
 */
export async function markCommentsRead({
  actor,
  itemId,
  seenUpTo,
}: {
  actor: Actor;
  itemId: string;
  seenUpTo: Date;
}): Promise<void> {
  assertCan(actor, "comments:write");
  await assertCanSeeItem(actor, itemId);
  await prisma().$executeRaw`
    INSERT INTO "CommentRead" ("itemId", "userId", "readAt") VALUES (${itemId}, ${actor.id}, ${seenUpTo})
    ON CONFLICT ("itemId", "userId") DO UPDATE SET "readAt" = GREATEST("CommentRead"."readAt", EXCLUDED."readAt")`;
}

/** Unread comment counts for a set of items, for queue rows. Only call with items the actor may see. Scope: comments:write. */
export async function countUnreadComments({
  actor,
  itemIds,
}: {
  actor: Actor;
  itemIds: string[];
}): Promise<Map<string, number>> {
  assertCan(actor, "comments:write");
  if (itemIds.length === 0) return new Map();
  const rows = await prisma().$queryRaw<{ itemId: string; n: bigint }[]>`
    SELECT c."itemId", count(*) AS n FROM "Comment" c
    LEFT JOIN "CommentRead" r ON r."itemId" = c."itemId" AND r."userId" = ${actor.id}
    WHERE c."itemId" = ANY(${itemIds}::text[]) AND c."authorId" <> ${actor.id} AND (r."readAt" IS NULL OR c."createdAt" > r."readAt")
    GROUP BY c."itemId"`;
  return new Map(rows.map((row) => [row.itemId, Number(row.n)]));
}

export type AnsweredThread = { itemId: string; question: string; answers: number };

/**
 * The actor's threads in a campaign that a reviewer or admin has answered since the actor last read
 * them: items the actor commented on, with the count of unread comments by people who are not
 * annotators, newest first (at most 50). Only threads the actor wrote in, so only items they hold or
 * held. Scope: comments:write.
 */
export async function listAnsweredThreads({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<AnsweredThread[]> {
  assertCan(actor, "comments:write");
  return prisma().$queryRaw<AnsweredThread[]>`
    SELECT c."itemId", min(r.question) AS question, count(*)::int AS answers
    FROM "Comment" c
    JOIN "CampaignItem" i ON i.id = c."itemId" AND i."campaignId" = ${campaignId}
    JOIN "Record" r ON r.id = i."recordId"
    JOIN "User" u ON u.id = c."authorId" AND u.role <> 'ANNOTATOR'
    LEFT JOIN "CommentRead" cr ON cr."itemId" = c."itemId" AND cr."userId" = ${actor.id}
    WHERE c."authorId" <> ${actor.id}
      AND (cr."readAt" IS NULL OR c."createdAt" > cr."readAt")
      AND c."itemId" IN (
        SELECT mine."itemId" FROM "Comment" mine
        JOIN "CampaignItem" mi ON mi.id = mine."itemId" AND mi."campaignId" = ${campaignId}
        WHERE mine."authorId" = ${actor.id})
    GROUP BY c."itemId"
    ORDER BY max(c."createdAt") DESC
    LIMIT 50`;
}
