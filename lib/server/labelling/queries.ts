import "server-only";

import { Prisma } from "@/lib/generated/prisma/client";
import type { Actor } from "@/lib/server/auth/permissions";

// The reads and writes the labelling operations share (claim-next-item.ts, skip-item.ts,
// submit-annotation.ts …): the queue's SQL, inside the caller's transaction.

export type Tx = Prisma.TransactionClient;

/**
 * Returns leases past their expiry in a campaign to the pool (inside the caller's transaction). It
 * starts from the lapsed leases (few, on the status/expiry index) and looks up each one's item by key:
 * as a join, a campaign created moments before (its items not yet in the planner's statistics, which
 * on a large table can take until the next 10 % of it changes) made the planner walk all the
 * campaign's items, 0.4 s per claim at 100,000 items.
 */
export async function releaseExpiredLeases(tx: Tx, campaignId: string): Promise<void> {
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
export async function nextSampleItem(
  tx: Tx,
  { actor, campaignId }: { actor: Actor; campaignId: string },
): Promise<{ id: string; recordId: number } | null> {
  const candidate = (lock: Prisma.Sql) => tx.$queryRaw<{ id: string; recordId: number }[]>`
    SELECT i.id, i."recordId" FROM "CampaignItem" i
    WHERE i."campaignId" = ${campaignId} AND NOT i.gold AND i."slotsTaken" < i.target AND i.language = ANY(${actor.languages}::text[])
      AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i.id AND a."userId" = ${actor.id})
    ORDER BY i.position
    LIMIT 1
    ${lock}`;
  const [free] = await candidate(Prisma.sql`FOR UPDATE SKIP LOCKED`);
  if (free) return free;
  const [waitedFor] = await candidate(Prisma.sql`FOR UPDATE`);
  return waitedFor ?? null;
}

/**
 * Takes one of an item's slots while it has a free one; false when its last slot is taken. Callers
 * hold the item's row (claim: FOR UPDATE SKIP LOCKED; submit: FOR UPDATE).
 */
export async function takeSlot(tx: Tx, itemId: string): Promise<boolean> {
  // Slot counters only: the SQL rules on "CampaignItem" (prisma/sql/triggers/CampaignItem.*) run nothing.
  const taken =
    await tx.$executeRaw`UPDATE "CampaignItem" SET "slotsTaken" = "slotsTaken" + 1 WHERE id = ${itemId} AND "slotsTaken" < target`;
  return taken === 1;
}

/** Gives back the slot of a lease that ends while still running (a skip). */
export async function returnSlot(tx: Tx, itemId: string): Promise<void> {
  // Slot counters only: the SQL rules on "CampaignItem" (prisma/sql/triggers/CampaignItem.*) run nothing.
  await tx.$executeRaw`UPDATE "CampaignItem" SET "slotsTaken" = "slotsTaken" - 1 WHERE id = ${itemId}`;
}
