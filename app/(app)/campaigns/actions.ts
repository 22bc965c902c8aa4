"use server";

import { revalidatePath } from "next/cache";
import { createAction } from "@/lib/server/action";
import { deleteCampaign } from "@/lib/server/campaigns/delete-campaign";
import { changeCampaignStatus, updateCampaignSettings } from "@/lib/server/campaigns/lifecycle";
import { reorderCampaignCategories } from "@/lib/server/campaigns/taxonomy";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { extendCampaign } from "@/lib/server/campaigns/extend-campaign";
import { updateCampaignGuidelines } from "@/lib/server/campaigns/update-campaign-guidelines";
import {
  campaignGuidelinesSchema,
  campaignIdSchema,
  campaignSettingsActionSchema,
  campaignStatusActionSchema,
  createCampaignSchema,
  extendCampaignActionSchema,
  reorderCategoriesSchema,
} from "@/lib/validation/campaigns";

/**
 * Creates a campaign (sample, overlap, taxonomy) and returns its id, item count and seed, and for a
 * large sample the records a job is drawing (its items come later). Scope: campaigns:admin.
 */
export const createCampaignAction = createAction("campaigns:admin", createCampaignSchema, async ({ input, actor }) => {
  const campaign = await createCampaign({ actor, input });
  revalidatePath("/campaigns");
  return {
    id: campaign.id,
    name: campaign.name,
    itemCount: campaign.itemCount,
    seed: campaign.seed,
    drawingItems: campaign.itemDraw?.status === "RUNNING" ? campaign.itemDraw.total : null,
  };
});

/** Saves a campaign's guidelines and its note rule for invalid labels. Scope: campaigns:admin. */
export const updateCampaignGuidelinesAction = createAction(
  "campaigns:admin",
  campaignGuidelinesSchema,
  async ({ input, actor }) => {
    await updateCampaignGuidelines({ actor, input });
    revalidatePath(`/campaigns/${input.campaignId}`);
    return { saved: true };
  },
);

/** Renames a campaign or changes its overlap (until labels exist). Scope: campaigns:admin. */
export const updateCampaignSettingsAction = createAction(
  "campaigns:admin",
  campaignSettingsActionSchema,
  async ({ input: { campaignId, ...input }, actor }) => {
    const campaign = await updateCampaignSettings({ actor, campaignId, input });
    revalidatePath(`/campaigns/${campaignId}`);
    return {
      name: campaign.name,
      overlap: campaign.overlap,
      goldShare: campaign.goldShare ?? 0,
      visibility: campaign.visibility,
    };
  },
);

/** Pauses, resumes, closes, reopens, archives or unarchives a campaign. Scope: campaigns:admin. */
export const changeCampaignStatusAction = createAction(
  "campaigns:admin",
  campaignStatusActionSchema,
  async ({ input, actor }) => {
    const result = await changeCampaignStatus({ actor, campaignId: input.campaignId, action: input.action });
    revalidatePath(`/campaigns/${input.campaignId}`);
    return result;
  },
);

/**
 * Deletes a campaign that has no labels: at once, or (a large one) marked DELETING for a job, which
 * the campaigns page follows. Deleting one whose removal failed tries again. Scope: campaigns:admin.
 */
export const deleteCampaignAction = createAction("campaigns:admin", campaignIdSchema, async ({ input, actor }) => {
  const deletion = await deleteCampaign({ actor, campaignId: input.campaignId });
  revalidatePath("/campaigns");
  return deletion;
});

/** Adds records to a running campaign under its seed; answers the items per language before and after. Scope: campaigns:admin. */
export const extendCampaignAction = createAction(
  "campaigns:admin",
  extendCampaignActionSchema,
  async ({ input: { campaignId, ...input }, actor }) => {
    const result = await extendCampaign({ actor, campaignId, input });
    revalidatePath(`/campaigns/${campaignId}`);
    return result;
  },
);

/** Puts a campaign's error categories in a new order, until its first label. Scope: campaigns:admin. */
export const reorderCategoriesAction = createAction(
  "campaigns:admin",
  reorderCategoriesSchema,
  async ({ input, actor }) => {
    const result = await reorderCampaignCategories({ actor, campaignId: input.campaignId, keys: input.keys });
    revalidatePath(`/campaigns/${input.campaignId}`);
    return result;
  },
);
