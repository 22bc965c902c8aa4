import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { queueCampaignRemoval } from "@/lib/server/campaigns/deletion-queue";
import { deleteOrMarkCampaign } from "@/lib/server/campaigns/lifecycle";

/**
 * Deletes a campaign that nobody has labelled: DELETED when it was small enough to delete inside the
 * call, else DELETING: marked (gone from lists and claims at once) with a job queued that removes
 * it (remove-campaign.ts; the campaigns page and the Jobs list follow it). Scope: campaigns:admin.
 */
export async function deleteCampaign({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<{ status: "DELETED" } | { status: "DELETING"; items: number }> {
  assertCan(actor, "campaigns:admin");
  const deletion = await deleteOrMarkCampaign({ actor, campaignId });
  if (deletion.outcome === "deleted") return { status: "DELETED" };
  await queueCampaignRemoval(actor, { campaignId });
  return { status: "DELETING", items: deletion.items };
}
