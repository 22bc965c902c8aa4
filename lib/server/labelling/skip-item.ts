import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import { returnSlot } from "@/lib/server/labelling/queries";

export type SkipItemParams = { actor: Actor; itemId: string; reason: string };

/**
 * Skips the actor's item with a reason, while they hold it or after their lease ended (expired, or a
 * pause ended it) without a label: they will not get it again. A running lease's slot goes back to
 * the pool; an ended one gave its slot back already. Scope: labels:write.
 */
export async function skipItem({ actor, itemId, reason }: SkipItemParams): Promise<void> {
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
    if (held.status === "ACTIVE") await returnSlot(tx, itemId);
    await writeAudit(tx, {
      actorId: actor.id,
      action: "item.skip",
      targetType: "CampaignItem",
      targetId: itemId,
      after: { reason },
    });
  });
}
