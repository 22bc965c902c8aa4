import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import { type Actor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { visibleCampaignWhere } from "@/lib/server/auth/visibility";

/** A campaign's error taxonomy in display order; empty for a campaign the actor may not see. Scope: records:read. */
export async function listCategories({ actor, campaignId }: { actor: Actor; campaignId: string }) {
  assertCan(actor, "records:read");
  return prisma().errorCategory.findMany({
    where: { campaignId, campaign: visibleCampaignWhere(actor) },
    orderBy: { position: "asc" },
    select: { key: true, label: true, description: true, invalidating: true, criticRule: true },
  });
}
