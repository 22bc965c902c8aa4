import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import type { AnnotationInput } from "@/lib/validation/campaigns";

import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import { takeSlot } from "@/lib/server/labelling/queries";
import { criticHiddenRecordIds, isFirstLabelPreReveal } from "@/lib/server/auth/visibility";

export type SubmitAnnotationParams = { actor: Actor; itemId: string; input: AnnotationInput };

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
export async function submitAnnotation({ actor, itemId, input }: SubmitAnnotationParams): Promise<SubmittedAnnotation> {
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
        recordRevision: number;
      }[]
    >`
      SELECT i.id, i."recordId", i."campaignId", i.language, r.revision AS "recordRevision"
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
      // The item's row is held (FOR UPDATE above), so its free slot cannot go between check and take.
      if (!(await takeSlot(tx, itemId)))
        throw new AppError(
          "CONFLICT",
          "Your lease on this item expired and its last slot went to someone else. Your label was not saved; copy your note before moving on.",
        );
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
