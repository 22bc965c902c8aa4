import { deleteCampaign } from "@/lib/server/campaigns/delete-campaign";
import { updateCampaignSettings } from "@/lib/server/campaigns/lifecycle";
import { answer, apiRoute, readJson } from "@/lib/server/http";
import { campaignSettingsSchema } from "@/lib/validation/campaigns";

/** PATCH /api/v1/campaigns/{id} with {name?, overlap?} → 200 the campaign; overlap only until labels exist (409). */
export const PATCH = apiRoute<{ id: string }>("campaigns:admin", async ({ request, actor, params }) => {
  const input = campaignSettingsSchema.parse(await readJson(request));
  return answer("PATCH /campaigns/{id}", await updateCampaignSettings({ actor, campaignId: params.id, input }));
});

/**
 * DELETE /api/v1/campaigns/{id} → 204 when deleted at once; 202 {status: DELETING, items} when a job
 * removes a large campaign (gone from lists and claims already); 409 once anything is labelled.
 */
export const DELETE = apiRoute<{ id: string }>("campaigns:admin", async ({ actor, params }) => {
  const deletion = await deleteCampaign({ actor, campaignId: params.id });
  if (deletion.status === "DELETED") return new Response(null, { status: 204 });
  return answer("DELETE /campaigns/{id}", deletion, { status: 202 });
});
