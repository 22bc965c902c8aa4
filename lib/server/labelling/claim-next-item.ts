import "server-only";

import { countOf } from "@/lib/format/count";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { visibleCampaignWhere } from "@/lib/server/auth/visibility";
import { AppError } from "@/lib/server/errors";

import { assertOpenForClaims } from "@/lib/server/campaigns/lifecycle";
import { prisma } from "@/lib/server/db/client";
import { goldTurn } from "@/lib/server/labelling/gold-queue";
import { nextSampleItem, releaseExpiredLeases, takeSlot, type Tx } from "@/lib/server/labelling/queries";

/**
 * The most running leases a person holds in one campaign across their named clients: enough for a
 * script's parallel clients, few enough that one token cannot take a campaign's items out of others'
 * reach (a lease it abandons comes back only when it runs out).
 */
export const MAX_CLIENT_LEASES = 16;

export type Claim = { itemId: string; recordId: number; leaseExpiresAt: Date; isNew: boolean };

/**
 * Claims the actor's next item in a campaign with a lease: the client's current unexpired lease if
 * it has one (claims naming no client share one lease, so two tabs get the same item; a script's
 * named clients each hold their own, up to {@link MAX_CLIENT_LEASES} at once), otherwise the first item in campaign order that has a free
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
  client = "",
}: {
  actor: Actor;
  campaignId: string;
  /** The claiming client's own name (claimRequestSchema); "" for the browser. */
  client?: string;
}): Promise<Claim | null> {
  assertCan(actor, "labels:write");
  // The campaign as getCampaign scopes it (an annotator without a shared language gets NOT_FOUND),
  // reading only what a claim needs: one query on every claim instead of the summary's two.
  const campaign = await prisma().campaign.findFirst({
    where: { id: campaignId, ...visibleCampaignWhere(actor) },
    select: { leaseMinutes: true },
  });
  if (!campaign) throw new AppError("NOT_FOUND", "No such campaign.");
  return prisma().$transaction(async (tx) => {
    // One claim at a time per annotator and campaign, so two tabs cannot take two items and the
    // lease count below stays true.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${actor.id}), hashtext(${campaignId}))`;
    const settings = await assertOpenForClaims(tx, campaignId);
    // One query with the item's record (Prisma's nested select is two).
    const [current] = await tx.$queryRaw<{ itemId: string; recordId: number; leaseExpiresAt: Date }[]>`
      SELECT a."itemId", i."recordId", a."leaseExpiresAt"
      FROM "Assignment" a JOIN "CampaignItem" i ON i.id = a."itemId"
      WHERE a."userId" = ${actor.id} AND a.client = ${client} AND a.status = 'ACTIVE' AND a."leaseExpiresAt" > ${new Date()}
        AND i."campaignId" = ${campaignId}
      LIMIT 1`;
    if (current) return { ...current, isNew: false };
    await releaseExpiredLeases(tx, campaignId);
    if (client) await assertLeaseRoom(tx, { actor, campaignId });
    // Gold items come at the campaign's gold share, and only while sample items remain for the
    // actor: someone who joins a finished campaign gets nothing rather than a run of gold items, and
    // "still available" (forecastGold) counts exactly what the queue will hand out.
    const sample = await nextSampleItem(tx, { actor, campaignId });
    if (!sample) return null;
    const gold = await goldTurn(tx, { actor, campaign: settings });
    const candidate = (gold.isTurn ? await gold.takeGoldItem() : null) ?? sample;
    if (!(await takeSlot(tx, candidate.id))) throw new AppError("CONFLICT", "That item was just taken; try again.");
    const leaseExpiresAt = new Date(Date.now() + campaign.leaseMinutes * 60_000);
    await tx.assignment.create({ data: { itemId: candidate.id, userId: actor.id, client, leaseExpiresAt } });
    return { itemId: candidate.id, recordId: candidate.recordId, leaseExpiresAt, isNew: true };
  });
}

async function assertLeaseRoom(tx: Tx, { actor, campaignId }: { actor: Actor; campaignId: string }): Promise<void> {
  const running = await tx.assignment.count({
    where: { userId: actor.id, status: "ACTIVE", leaseExpiresAt: { gt: new Date() }, item: { campaignId } },
  });
  if (running >= MAX_CLIENT_LEASES)
    throw new AppError(
      "CONFLICT",
      `You hold ${countOf(MAX_CLIENT_LEASES, "item")} in this campaign already, the most at once: label or skip one of them before claiming another.`,
    );
}
