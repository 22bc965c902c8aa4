import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import { type Actor } from "@/lib/server/auth/permissions";
import type { ExtendCampaignInput } from "@/lib/validation/campaigns";
import { queueExtension } from "@/lib/server/campaigns/extension-queue";
import { type CampaignExtension, extendOrRecordExtension } from "@/lib/server/campaigns/extension-items";

/** An extension's answer: the items added inside the call, or RUNNING while a job adds them. */
export type ExtendCampaignResult =
  ({ status: "SUCCEEDED" } & CampaignExtension) | { status: "RUNNING"; perLanguage: number | null; total: number };

/**
 * Adds records to a running campaign: a larger sample per language (or all, null) and optionally
 * more languages, under the campaign's seed, so the items are those a campaign created with the new
 * size would hold; labels so far stay, new items queue after the old ones. The sample never shrinks.
 * A small extension answers SUCCEEDED with the items per language before and after; one ranking
 * more than RECORDS_DRAWN_IN_REQUEST records answers RUNNING at once with how many items it should
 * add, and a job adds them (the campaign's page follows it). Scope: campaigns:admin.
 */
export async function extendCampaign({
  actor,
  campaignId,
  input,
}: {
  actor: Actor;
  campaignId: string;
  input: ExtendCampaignInput;
}): Promise<ExtendCampaignResult> {
  assertCan(actor, "campaigns:admin");
  const extension = await extendOrRecordExtension({ actor, campaignId, input });
  if (extension.outcome === "added") {
    const { outcome: _outcome, ...added } = extension;
    return { status: "SUCCEEDED", ...added };
  }
  await queueExtension(actor, { extensionId: extension.extensionId });
  return { status: "RUNNING", perLanguage: extension.perLanguage, total: extension.total };
}
