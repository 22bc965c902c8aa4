import { extendCampaign } from "@/lib/server/campaigns/extend-campaign";
import { answer, apiRoute, readJson } from "@/lib/server/http";
import { extendCampaignSchema } from "@/lib/validation/campaigns";

/**
 * POST /api/v1/campaigns/{id}/items with {perLanguage, languages?} → the sample grown under the same
 * seed: 200 {status: SUCCEEDED, added, perLanguage, before, after} (items per language), or 202
 * {status: RUNNING, perLanguage, total} when a job adds a large sample's items.
 */
export const POST = apiRoute<{ id: string }>("campaigns:admin", async ({ request, actor, params }) => {
  const input = extendCampaignSchema.parse(await readJson(request));
  const extension = await extendCampaign({ actor, campaignId: params.id, input });
  return answer("POST /campaigns/{id}/items", extension, { status: extension.status === "RUNNING" ? 202 : 200 });
});
