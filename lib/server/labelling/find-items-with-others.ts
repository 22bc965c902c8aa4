import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";

import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { prisma } from "@/lib/server/db/client";

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
