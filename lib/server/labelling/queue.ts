import "server-only";

import { storedCriticRules } from "@/lib/records/critic";
import type { Prisma } from "@/lib/generated/prisma/client";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import type { AnnotationInput } from "@/lib/validation/campaigns";

import { writeAudit } from "@/lib/server/audit/audit";
import { assertOpenForClaims } from "@/lib/server/campaigns/lifecycle";
import { getCampaign } from "@/lib/server/campaigns/campaigns";
import { prisma } from "@/lib/server/db/client";
import { goldTurn } from "@/lib/server/labelling/gold-queue";
import { recordViewSelect } from "@/lib/server/records/records";
import {
  criticAsSeen,
  criticHiddenRecordIds,
  evidenceHiddenRecordIds,
  executionAsSeen,
  executionHiddenRecordIds,
  isFirstLabelPreReveal,
  whyCriticHidden,
} from "@/lib/server/auth/visibility";

export type Claim = { itemId: string; recordId: number; leaseExpiresAt: Date; isNew: boolean };

type Tx = Prisma.TransactionClient;

/**
 * Returns leases past their expiry in a campaign to the pool (inside the caller's transaction). It
 * starts from the lapsed leases (few, on the status/expiry index) and looks up each one's item by key:
 * as a join, a campaign created moments before (its items not yet in the planner's statistics, which
 * on a large table can take until the next 10 % of it changes) made the planner walk all the
 * campaign's items, 0.4 s per claim at 100,000 items.
 */
async function releaseExpiredLeases(tx: Tx, campaignId: string): Promise<void> {
  // Slot counters only: the SQL rules on "CampaignItem" (prisma/sql/triggers/CampaignItem.*) run nothing.
  await tx.$executeRaw`
    WITH expired AS (
      UPDATE "Assignment" a SET status = 'EXPIRED', "finishedAt" = now()
      WHERE a.status = 'ACTIVE' AND a."leaseExpiresAt" < now()
        AND (SELECT i."campaignId" FROM "CampaignItem" i WHERE i.id = a."itemId") = ${campaignId}
      RETURNING a."itemId"
    )
    UPDATE "CampaignItem" c SET "slotsTaken" = c."slotsTaken" - e.n
    FROM (SELECT "itemId", count(*)::int AS n FROM expired GROUP BY "itemId") e
    WHERE c.id = e."itemId"`;
}

/**
 * The first item of the campaign's sample, in campaign order, with a free slot, in the actor's
 * languages, never held by them (row locked). Rows another transaction holds are passed over, so
 * annotators mid-campaign each take the next free item at once; when every candidate is held, the
 * claim waits for them instead (claims and submits hold an item for milliseconds) and takes the
 * first whose slot is still free once its holder commits (PostgreSQL checks the row again after
 * the wait). Passing over them then too answered "nothing left" to an annotator finishing a
 * campaign together with another, while the last item still had their slot (24 of 60 such claims).
 */
async function nextSampleItem(
  tx: Tx,
  { actor, campaignId }: { actor: Actor; campaignId: string },
): Promise<{ id: string; recordId: number } | null> {
  const [free] = await tx.$queryRaw<{ id: string; recordId: number }[]>`
    SELECT i.id, i."recordId" FROM "CampaignItem" i
    WHERE i."campaignId" = ${campaignId} AND NOT i.gold AND i."slotsTaken" < i.target AND i.language = ANY(${actor.languages}::text[])
      AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i.id AND a."userId" = ${actor.id})
    ORDER BY i.position
    LIMIT 1
    FOR UPDATE SKIP LOCKED`;
  if (free) return free;
  const [waitedFor] = await tx.$queryRaw<{ id: string; recordId: number }[]>`
    SELECT i.id, i."recordId" FROM "CampaignItem" i
    WHERE i."campaignId" = ${campaignId} AND NOT i.gold AND i."slotsTaken" < i.target AND i.language = ANY(${actor.languages}::text[])
      AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i.id AND a."userId" = ${actor.id})
    ORDER BY i.position
    LIMIT 1
    FOR UPDATE`;
  return waitedFor ?? null;
}

export type ItemsWithOthers = { items: number; nextLeaseEndsAt: Date };

/**
 * When the queue has nothing for the actor: the items they could still be handed that other
 * annotators hold running leases on (a lease that runs out or is skipped puts its slot back), and
 * when the first of those leases ends; null when there are none, so the actor is done. Gold items
 * are left out, as the queue hands them out only beside sample items. Scope: labels:write.
 */
export async function findItemsWithOthers({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<ItemsWithOthers | null> {
  assertCan(actor, "labels:write");
  await getCampaign({ actor, campaignId });
  // From the running leases (few, on the status/expiry index), not from the campaign's items.
  const [row] = await prisma().$queryRaw<{ items: number; nextLeaseEndsAt: Date | null }[]>`
    SELECT count(DISTINCT a."itemId")::int AS items, min(a."leaseExpiresAt") AS "nextLeaseEndsAt"
    FROM "Assignment" a JOIN "CampaignItem" i ON i.id = a."itemId"
    WHERE a.status = 'ACTIVE' AND a."leaseExpiresAt" > now() AND a."userId" <> ${actor.id}
      AND i."campaignId" = ${campaignId} AND NOT i.gold AND i.language = ANY(${actor.languages}::text[])
      AND NOT EXISTS (SELECT 1 FROM "Assignment" m WHERE m."itemId" = i.id AND m."userId" = ${actor.id})`;
  return row && row.items > 0 && row.nextLeaseEndsAt
    ? { items: row.items, nextLeaseEndsAt: row.nextLeaseEndsAt }
    : null;
}

/**
 * Claims the actor's next item in a campaign with a lease: their current unexpired lease if they
 * have one (two tabs get the same item), otherwise the first item in campaign order that has a free
 * slot, is in one of their languages and that they never held — or, at a secret draw under the
 * campaign's gold share and while such a sample item remains, a gold item (gold-queue.ts), which
 * looks and behaves like any other. The item row is locked (another claim's row is waited for only
 * when nothing else is free: nextSampleItem) and its slot counter bumped in the same transaction, so
 * an item never exceeds its overlap. Returns null when no item can be handed to the actor now
 * (findItemsWithOthers tells whether one may come back). Scope: labels:write.
 */
export async function claimNextItem({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<Claim | null> {
  assertCan(actor, "labels:write");
  const campaign = await getCampaign({ actor, campaignId });
  return prisma().$transaction(async (tx) => {
    // One claim at a time per annotator and campaign, so two tabs cannot take two items.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${actor.id}), hashtext(${campaignId}))`;
    await assertOpenForClaims(tx, campaignId);
    const current = await tx.assignment.findFirst({
      where: { userId: actor.id, status: "ACTIVE", leaseExpiresAt: { gt: new Date() }, item: { campaignId } },
      select: { itemId: true, leaseExpiresAt: true, item: { select: { recordId: true } } },
    });
    if (current)
      return {
        itemId: current.itemId,
        recordId: current.item.recordId,
        leaseExpiresAt: current.leaseExpiresAt,
        isNew: false,
      };
    await releaseExpiredLeases(tx, campaignId);
    // Gold items come at the campaign's gold share, and only while sample items remain for the
    // actor: someone who joins a finished campaign gets nothing rather than a run of gold items, and
    // "still available" (forecastGold) counts exactly what the queue will hand out.
    const sample = await nextSampleItem(tx, { actor, campaignId });
    if (!sample) return null;
    const gold = await goldTurn(tx, { actor, campaignId });
    const candidate = (gold.isTurn ? await gold.takeGoldItem() : null) ?? sample;
    // Slot counters only: the SQL rules on "CampaignItem" (prisma/sql/triggers/CampaignItem.*) run nothing.
    const taken =
      await tx.$executeRaw`UPDATE "CampaignItem" SET "slotsTaken" = "slotsTaken" + 1 WHERE id = ${candidate.id} AND "slotsTaken" < target`;
    if (taken !== 1) throw new AppError("CONFLICT", "That item was just taken; try again.");
    const leaseExpiresAt = new Date(Date.now() + campaign.leaseMinutes * 60_000);
    await tx.assignment.create({ data: { itemId: candidate.id, userId: actor.id, leaseExpiresAt } });
    return { itemId: candidate.id, recordId: candidate.recordId, leaseExpiresAt, isNew: true };
  });
}

/** Extends the actor's lease on an item while they work on it; an item they never held is NOT_FOUND. Scope: labels:write. */
export async function renewLease({ actor, itemId }: { actor: Actor; itemId: string }): Promise<Date> {
  assertCan(actor, "labels:write");
  const assignment = await prisma().assignment.findUnique({
    where: { itemId_userId: { itemId, userId: actor.id } },
    select: {
      id: true,
      status: true,
      leaseExpiresAt: true,
      item: { select: { campaign: { select: { leaseMinutes: true } } } },
    },
  });
  if (!assignment) throw new AppError("NOT_FOUND", "No such item.");
  if (assignment.status !== "ACTIVE" || assignment.leaseExpiresAt <= new Date())
    throw new AppError(
      "CONFLICT",
      "Your lease on this item has ended. Submit to keep your work if the slot is still free.",
    );
  const leaseExpiresAt = new Date(Date.now() + assignment.item.campaign.leaseMinutes * 60_000);
  await prisma().assignment.update({ where: { id: assignment.id }, data: { leaseExpiresAt } });
  return leaseExpiresAt;
}

/**
 * Skips the actor's item with a reason, while they hold it or after their lease ended (expired, or a
 * pause ended it) without a label: they will not get it again. A running lease's slot goes back to
 * the pool; an ended one gave its slot back already. Scope: labels:write.
 */
export async function skipItem({
  actor,
  itemId,
  reason,
}: {
  actor: Actor;
  itemId: string;
  reason: string;
}): Promise<void> {
  assertCan(actor, "labels:write");
  await prisma().$transaction(async (tx) => {
    // Locked, so an expiry collected by someone's claim in the same instant cannot give the slot back twice.
    const [held] = await tx.$queryRaw<{ id: string; status: string }[]>`
      SELECT id, status::text FROM "Assignment" WHERE "itemId" = ${itemId} AND "userId" = ${actor.id} FOR UPDATE`;
    if (!held || (held.status !== "ACTIVE" && held.status !== "EXPIRED"))
      throw new AppError("NOT_FOUND", "You hold no lease on this item.");
    await tx.assignment.update({
      where: { id: held.id },
      data: { status: "SKIPPED", skipReason: reason, finishedAt: new Date() },
    });
    // Slot counters only: the SQL rules on "CampaignItem" (prisma/sql/triggers/CampaignItem.*) run nothing.
    if (held.status === "ACTIVE")
      await tx.$executeRaw`UPDATE "CampaignItem" SET "slotsTaken" = "slotsTaken" - 1 WHERE id = ${itemId}`;
    await writeAudit(tx, {
      actorId: actor.id,
      action: "item.skip",
      targetType: "CampaignItem",
      targetId: itemId,
      after: { reason },
    });
  });
}

export type SubmittedAnnotation = {
  id: string;
  revision: number;
  valid: boolean;
  categories: string[];
  note: string | null;
  testLine: number | null;
  needsReview: boolean;
  /** The label's active time so far; only in the answer to a repeated, unchanged submit. */
  activeMs?: number;
  created: boolean;
};

function sameLabel(
  a: { valid: boolean; categories: string[]; note: string | null; testLine: number | null; needsReview: boolean },
  b: typeof a,
): boolean {
  return (
    a.valid === b.valid &&
    a.note === b.note &&
    a.testLine === b.testLine &&
    a.needsReview === b.needsReview &&
    [...a.categories].sort().join() === [...b.categories].sort().join()
  );
}

/**
 * Submits (or revises) the actor's label on an item. Only the holder of the item's assignment may
 * label it: an item never claimed (or another annotator's) is NOT_FOUND, a skipped one is CONFLICT,
 * and a submit after the lease expired is accepted while the item still has a free slot. The item
 * row is locked, so a double submit yields one annotation; a stale form (baseRevision behind) gets
 * CONFLICT. Every version is appended to the
 * revision history; in blind mode the first version is also kept as the pre-reveal label when it
 * truly is one (an annotator's: see visibility.ts).
 * Runs the actor made on the record while holding the item are attached as evidence. Scope: labels:write.
 */
export async function submitAnnotation({
  actor,
  itemId,
  input,
}: {
  actor: Actor;
  itemId: string;
  input: AnnotationInput;
}): Promise<SubmittedAnnotation> {
  assertCan(actor, "labels:write");
  return prisma().$transaction(async (tx) => {
    // The campaign row first, share-locked (the order every writer takes: campaign, then item): a
    // delete or a status change either waits for this label to commit and then sees it, or commits
    // first and this submit finds no campaign. Without it a delete could cascade over a label it
    // had already checked was not there, after the label was acknowledged.
    // With the lock, what the checks below read of the campaign: one round trip, not three.
    const [campaign] = await tx.$queryRaw<
      { status: string; blind: boolean; requireInvalidNote: boolean; categories: string[] }[]
    >`
      SELECT c.status::text AS status, c.blind, c."requireInvalidNote",
             ARRAY(SELECT k.key FROM "ErrorCategory" k WHERE k."campaignId" = c.id) AS categories
      FROM "Campaign" c WHERE c.id = (SELECT "campaignId" FROM "CampaignItem" WHERE id = ${itemId}) FOR SHARE OF c`;
    if (!campaign) throw new AppError("NOT_FOUND", "No such item.");
    // A label is about the record's content as it is now: the revision goes with it (revisions.ts).
    const [item] = await tx.$queryRaw<
      {
        id: string;
        recordId: number;
        campaignId: string;
        language: string;
        slotsTaken: number;
        target: number;
        recordRevision: number;
      }[]
    >`
      SELECT i.id, i."recordId", i."campaignId", i.language, i."slotsTaken", i.target, r.revision AS "recordRevision"
      FROM "CampaignItem" i JOIN "Record" r ON r.id = i."recordId" WHERE i.id = ${itemId} FOR UPDATE OF i`;
    if (!item || !actor.languages.includes(item.language)) throw new AppError("NOT_FOUND", "No such item.");
    const { recordRevision } = item;
    // A paused campaign still takes the labels of leases it ended; a closed one is final.
    if (campaign.status === "CLOSED" || campaign.status === "ARCHIVED")
      throw new AppError("CONFLICT", "This campaign is closed: its labels can no longer change.");
    if (!input.valid && campaign.requireInvalidNote && !input.note)
      throw new AppError("INVALID_INPUT", "This campaign asks for a note on invalid labels.", {
        note: ["Say why it is invalid."],
      });
    const known = new Set(campaign.categories);
    const unknown = input.categories.filter((key) => !known.has(key));
    if (unknown.length)
      throw new AppError("INVALID_INPUT", `Unknown error categories: ${unknown.join(", ")}.`, {
        categories: [`Unknown: ${unknown.join(", ")}`],
      });
    const label = {
      valid: input.valid,
      categories: [...new Set(input.categories)],
      note: input.note,
      testLine: input.testLine ?? null,
      needsReview: input.needsReview,
    };

    const existing = await tx.annotation.findUnique({
      where: { itemId_userId: { itemId, userId: actor.id } },
      select: {
        id: true,
        revision: true,
        valid: true,
        categories: true,
        note: true,
        testLine: true,
        needsReview: true,
        activeMs: true,
      },
    });
    if (existing) {
      if (sameLabel(existing, label)) return { ...existing, created: false };
      if (input.baseRevision !== undefined && input.baseRevision !== existing.revision) {
        throw new AppError(
          "CONFLICT",
          `This label changed since you opened it (now revision ${existing.revision}). Reload to see it; your form keeps your edits.`,
        );
      }
      const revision = existing.revision + 1;
      const activeMs = existing.activeMs + input.activeMs;
      // SQL rules run by this update (prisma/sql): triggers/Annotation.*_update.sql, running
      // functions/verity_annotations_changed.sql (the item's label counters and kept final label),
      // verity_annotators_changed.sql (CampaignAnnotator) and verity_note_annotation_changes.sql (CampaignChange).
      await tx.annotation.update({
        where: { id: existing.id },
        data: { ...label, activeMs, revision, recordRevision },
      });
      await tx.annotationRevision.create({ data: { annotationId: existing.id, revision, ...label, activeMs } });
      await writeAudit(tx, {
        actorId: actor.id,
        action: "label.revise",
        targetType: "Annotation",
        campaignId: item.campaignId,
        targetId: existing.id,
        before: { valid: existing.valid, categories: existing.categories, note: existing.note },
        after: { ...label, revision },
      });
      return { id: existing.id, revision, ...label, created: false };
    }

    // A first label needs the assignment the queue handed out: item ids alone grant nothing.
    const assignment = await tx.assignment.findUnique({
      where: { itemId_userId: { itemId, userId: actor.id } },
      select: { id: true, status: true, leaseExpiresAt: true, createdAt: true },
    });
    if (!assignment) throw new AppError("NOT_FOUND", "No such item.");
    if (assignment.status === "SKIPPED")
      throw new AppError("CONFLICT", "You skipped this item, so it is no longer yours to label.");
    if (assignment.status !== "ACTIVE") {
      if (item.slotsTaken >= item.target) {
        throw new AppError(
          "CONFLICT",
          "Your lease on this item expired and its last slot went to someone else. Your label was not saved; copy your note before moving on.",
        );
      }
      // Slot counters only: the SQL rules on "CampaignItem" (prisma/sql/triggers/CampaignItem.*) run nothing.
      await tx.$executeRaw`UPDATE "CampaignItem" SET "slotsTaken" = "slotsTaken" + 1 WHERE id = ${itemId}`;
    }
    // Pre-reveal is what the annotator was shown, not what the campaign is called: the critic hidden
    // on every read now (this campaign's rule, or a blind campaign also holding the record), read
    // before this label shows it.
    const isPreReveal =
      isFirstLabelPreReveal(actor) &&
      (await criticHiddenRecordIds({ actor, recordIds: [item.recordId], db: tx })).has(item.recordId);
    const since = assignment.createdAt;
    await tx.assignment.update({ where: { id: assignment.id }, data: { status: "SUBMITTED", finishedAt: new Date() } });
    // SQL rules run by this insert (prisma/sql): triggers/Annotation.*_insert.sql, running
    // functions/verity_annotations_changed.sql (the item's label counters and kept final label),
    // verity_annotators_changed.sql (CampaignAnnotator) and verity_note_annotation_changes.sql (CampaignChange).
    const annotation = await tx.annotation.create({
      data: {
        itemId,
        userId: actor.id,
        ...label,
        activeMs: input.activeMs,
        recordRevision,
        ...(isPreReveal ? { preRevealValid: label.valid, preRevealCategories: label.categories } : {}),
      },
      select: { id: true },
    });
    await tx.annotationRevision.create({
      data: { annotationId: annotation.id, revision: 1, ...label, activeMs: input.activeMs },
    });
    await tx.runResult.updateMany({
      where: { recordId: item.recordId, userId: actor.id, annotationId: null, createdAt: { gte: since } },
      data: { annotationId: annotation.id },
    });
    await writeAudit(tx, {
      actorId: actor.id,
      action: "label.create",
      targetType: "Annotation",
      campaignId: item.campaignId,
      targetId: annotation.id,
      after: { itemId, ...label },
    });
    return { id: annotation.id, revision: 1, ...label, created: true };
  });
}

/** The actor's labels in a campaign, newest first, for their history list. Scope: labels:write. */
export async function listMyAnnotations({
  actor,
  campaignId,
  limit = 200,
}: {
  actor: Actor;
  campaignId: string;
  limit?: number;
}) {
  assertCan(actor, "labels:write");
  return prisma().annotation.findMany({
    where: { userId: actor.id, item: { campaignId } },
    orderBy: { updatedAt: "desc" },
    take: limit,
    select: {
      id: true,
      itemId: true,
      valid: true,
      categories: true,
      note: true,
      revision: true,
      updatedAt: true,
      item: { select: { language: true, record: { select: { id: true, question: true } } } },
    },
  });
}

/**
 * What the annotator's record view needs for one item: the record, the campaign's taxonomy, the
 * actor's lease and label with its revisions. The critic is left out while blind mode hides it from
 * the actor, and the execution columns while a campaign showing "nothing" does (visibility.ts), so
 * they never reach the browser early. Scoped to items the actor
 * holds or held: anything else is NOT_FOUND. Scope: labels:write.
 */
export async function getWorkItem({ actor, itemId }: { actor: Actor; itemId: string }) {
  assertCan(actor, "labels:write");
  const item = await prisma().campaignItem.findFirst({
    where: { id: itemId, assignments: { some: { userId: actor.id } } },
    select: {
      id: true,
      language: true,
      campaign: {
        select: {
          id: true,
          name: true,
          blind: true,
          leaseMinutes: true,
          guidelines: true,
          requireInvalidNote: true,
          categories: {
            orderBy: { position: "asc" },
            select: { key: true, label: true, description: true, invalidating: true },
          },
        },
      },
      assignments: { where: { userId: actor.id }, select: { status: true, leaseExpiresAt: true } },
      annotations: {
        where: { userId: actor.id },
        select: {
          id: true,
          valid: true,
          categories: true,
          note: true,
          testLine: true,
          needsReview: true,
          revision: true,
          preRevealValid: true,
          preRevealCategories: true,
          activeMs: true,
          revisions: {
            orderBy: { revision: "desc" },
            select: { revision: true, valid: true, categories: true, note: true, createdAt: true },
          },
        },
      },
      record: { select: recordViewSelect },
    },
  });
  if (!item) throw new AppError("NOT_FOUND", "No such item.");
  const annotation = item.annotations[0] ?? null;
  const [hidden, executionHidden, evidenceHidden] = await Promise.all([
    criticHiddenRecordIds({ actor, recordIds: [item.record.id] }),
    executionHiddenRecordIds({ actor, recordIds: [item.record.id] }),
    evidenceHiddenRecordIds({ actor, recordIds: [item.record.id] }),
  ]);
  const isCriticVisible = !hidden.has(item.record.id);
  // The workspace says why: a label here shows it only when this campaign alone hides it.
  const criticHiddenBy = isCriticVisible
    ? null
    : await whyCriticHidden({ actor, recordId: item.record.id, campaignId: item.campaign.id });
  const isExecutionVisible = !executionHidden.has(item.record.id);
  const { critic: stored, ...record } = executionAsSeen(item.record, !isExecutionVisible);
  const critic = criticAsSeen(stored, !isCriticVisible);
  return {
    itemId: item.id,
    campaign: item.campaign,
    assignment: item.assignments[0] ?? null,
    annotation,
    isCriticVisible,
    criticHiddenBy,
    isExecutionVisible,
    isEvidenceVisible: !evidenceHidden.has(item.record.id),
    record: {
      ...record,
      critic: critic ? { ...critic, rules: storedCriticRules(critic.rules) } : null,
    },
  };
}
