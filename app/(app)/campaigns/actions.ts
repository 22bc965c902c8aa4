"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";

import { createAction } from "@/lib/server/action";
import { createCampaign, extendCampaign, updateCampaignSettings } from "@/lib/server/db/campaigns";
import { campaignSettingsSchema, createCampaignSchema, extendCampaignSchema } from "@/lib/validation/campaigns";

/** Creates a campaign (sample, overlap, taxonomy) and returns its id, item count and seed. Scope: campaigns:admin. */
export const createCampaignAction = createAction("campaigns:admin", createCampaignSchema, async ({ input, actor }) => {
  const campaign = await createCampaign({ actor, input });
  revalidatePath("/campaigns");
  return { id: campaign.id, name: campaign.name, itemCount: campaign.itemCount, seed: campaign.seed };
});

/** Saves a campaign's guidelines and its note rule for invalid labels. Scope: campaigns:admin. */
export const updateCampaignSettingsAction = createAction("campaigns:admin", campaignSettingsSchema, async ({ input, actor }) => {
  await updateCampaignSettings({ actor, input });
  revalidatePath(`/campaigns/${input.campaignId}`);
  return { saved: true };
});

/** Adds records to a running campaign under its seed; answers the items per language before and after. Scope: campaigns:admin. */
export const extendCampaignAction = createAction("campaigns:admin", extendCampaignSchema.extend({ campaignId: z.string().min(1).max(40) }), async ({ input: { campaignId, ...input }, actor }) => {
  const result = await extendCampaign({ actor, campaignId, input });
  revalidatePath(`/campaigns/${campaignId}`);
  return result;
});
