import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import { prisma } from "@/lib/server/db/client";

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
