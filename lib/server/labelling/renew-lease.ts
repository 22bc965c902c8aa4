import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import { prisma } from "@/lib/server/db/client";

/**
 * Extends the actor's lease on an item while they work on it: one conditional update, so a lease
 * that ends while the renewal runs (a claim collecting lapsed leases, a pause, a submit) stays ended.
 * An item they never held is NOT_FOUND; an ended lease is CONFLICT. Scope: labels:write.
 */
export async function renewLease({ actor, itemId }: { actor: Actor; itemId: string }): Promise<Date> {
  assertCan(actor, "labels:write");
  const [renewed] = await prisma().$queryRaw<{ leaseExpiresAt: Date }[]>`
    UPDATE "Assignment" a SET "leaseExpiresAt" = now() + make_interval(mins => c."leaseMinutes")
    FROM "CampaignItem" i JOIN "Campaign" c ON c.id = i."campaignId"
    WHERE a."itemId" = ${itemId} AND a."userId" = ${actor.id} AND i.id = a."itemId"
      AND a.status = 'ACTIVE' AND a."leaseExpiresAt" > now()
    RETURNING a."leaseExpiresAt"`;
  if (renewed) return renewed.leaseExpiresAt;
  // Nothing renewed: only the message depends on whether the actor ever held the item.
  const held = await prisma().assignment.findUnique({
    where: { itemId_userId: { itemId, userId: actor.id } },
    select: { id: true },
  });
  if (!held) throw new AppError("NOT_FOUND", "No such item.");
  throw new AppError(
    "CONFLICT",
    "Your lease on this item has ended. Submit to keep your work if the slot is still free.",
  );
}
