import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import { prisma } from "@/lib/server/db/client";
import { recordAsSeen } from "@/lib/server/labelling/get-work-item";
import { recordViewSelect } from "@/lib/server/records/records";

/**
 * What a claim through the API answers with: the claimed item's record as the actor may see it
 * (recordAsSeen, the workspace's rule) and the campaign's categories; none of the workspace's lease,
 * label and revisions, which a claim's answer does not carry (three queries fewer on every claim).
 * Scoped to items the actor holds or held, as getWorkItem. Scope: labels:write.
 */
export async function getClaimedRecord({ actor, itemId }: { actor: Actor; itemId: string }) {
  assertCan(actor, "labels:write");
  const item = await prisma().campaignItem.findFirst({
    where: { id: itemId, assignments: { some: { userId: actor.id } } },
    select: { campaignId: true, record: { select: recordViewSelect } },
  });
  if (!item) throw new AppError("NOT_FOUND", "No such item.");
  // The categories by the campaign's id, beside the record's visibility: a query fewer than reading
  // them through the item's campaign.
  const [categories, { record }] = await Promise.all([
    prisma().errorCategory.findMany({
      where: { campaignId: item.campaignId },
      orderBy: { position: "asc" },
      select: { key: true, label: true, description: true, invalidating: true },
    }),
    recordAsSeen(actor, item.record, item.campaignId),
  ]);
  return { categories, record };
}
