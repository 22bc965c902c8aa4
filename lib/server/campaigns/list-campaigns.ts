import "server-only";

import type { CampaignSummary } from "@/lib/campaigns/types";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { visibleCampaignWhere } from "@/lib/server/auth/visibility";
import { campaignSelect, toSummary, asSeenBy } from "@/lib/server/campaigns/queries";

/** Campaigns the actor can see: all for admins and reviewers, those sharing a language for annotators. Scope: records:read. */
export async function listCampaigns({ actor }: { actor: Actor }): Promise<CampaignSummary[]> {
  assertCan(actor, "records:read");
  const rows = await prisma().campaign.findMany({
    where: visibleCampaignWhere(actor),
    orderBy: { createdAt: "desc" },
    select: campaignSelect,
  });
  return rows.map((row) => asSeenBy(actor, toSummary(row)));
}
