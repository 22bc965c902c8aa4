import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { criticHiddenRecordIds } from "@/lib/server/auth/visibility";

import { prisma } from "@/lib/server/db/client";
import { type Claim, claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { skipItem, type SkipItemParams } from "@/lib/server/labelling/skip-item";
import {
  submitAnnotation,
  type SubmittedAnnotation,
  type SubmitAnnotationParams,
} from "@/lib/server/labelling/submit-annotation";

// The annotator's loop in one request: a label (or a skip) and the claim of the next item go
// together, so the workspace moves on without a separate trip through /campaigns/{id}/next.

/**
 * Claims the actor's next item, trying once more when another annotator took the last slot of the
 * chosen item in the same instant (the loser simply takes the next one). Scope: labels:write.
 */
export async function claimNextItemWithRetry({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<Claim | null> {
  return claimNextItem({ actor, campaignId }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "CONFLICT") return claimNextItem({ actor, campaignId });
    throw error;
  });
}

/** The next claim after a label or skip is saved; null when none can be handed out now (nothing left, or the campaign is paused or closed). */
async function claimAfterWrite(actor: Actor, campaignId: string): Promise<Claim | null> {
  return claimNextItemWithRetry({ actor, campaignId }).catch((error: unknown) => {
    // The write stands either way; /campaigns/{id}/next then says why nothing is handed out.
    if (error instanceof AppError && error.code === "CONFLICT") return null;
    throw error;
  });
}

export type LabelAndNext = {
  annotation: SubmittedAnnotation;
  campaignId: string;
  isCriticRevealed: boolean;
  next: Claim | null;
};

/**
 * Submits (or revises) the actor's label exactly as submitAnnotation does, then claims their next
 * item (their current lease if they hold one), unless this first label on a blind item just
 * revealed the critic: the annotator then confirms or revises on the same item before moving on.
 * Only items the actor holds or held are found (others are NOT_FOUND). Scope: labels:write.
 */
export async function submitAnnotationAndClaimNext({
  actor,
  itemId,
  input,
}: SubmitAnnotationParams): Promise<LabelAndNext> {
  assertCan(actor, "labels:write");
  const item = await prisma().campaignItem.findFirst({
    where: { id: itemId, assignments: { some: { userId: actor.id } } },
    select: { campaignId: true, recordId: true, campaign: { select: { blind: true } } },
  });
  if (!item) throw new AppError("NOT_FOUND", "No such item.");
  const annotation = await submitAnnotation({ actor, itemId, input });
  // Revealed only if shown now: a blind campaign that also holds the record keeps it hidden (the
  // workspace says so), and waiting on the same item for it would never end.
  const isCriticRevealed =
    item.campaign.blind &&
    annotation.created &&
    !(await criticHiddenRecordIds({ actor, recordIds: [item.recordId] })).has(item.recordId);
  const next = isCriticRevealed ? null : await claimAfterWrite(actor, item.campaignId);
  return { annotation, campaignId: item.campaignId, isCriticRevealed, next };
}

/** Skips the actor's item with a reason (as skipItem) and claims their next one. Scope: labels:write. */
export async function skipItemAndClaimNext({
  actor,
  itemId,
  reason,
}: SkipItemParams): Promise<{ campaignId: string; next: Claim | null }> {
  assertCan(actor, "labels:write");
  const item = await prisma().campaignItem.findFirst({
    where: { id: itemId, assignments: { some: { userId: actor.id } } },
    select: { campaignId: true },
  });
  if (!item) throw new AppError("NOT_FOUND", "You hold no lease on this item.");
  await skipItem({ actor, itemId, reason });
  return { campaignId: item.campaignId, next: await claimAfterWrite(actor, item.campaignId) };
}
