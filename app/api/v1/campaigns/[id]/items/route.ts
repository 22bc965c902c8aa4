import { extendCampaign } from "@/lib/server/campaigns/extend-campaign";
import { answer, apiRoute, readJson } from "@/lib/server/http";
import { extendCampaignSchema } from "@/lib/validation/campaigns";

/** POST /api/v1/campaigns/{id}/items with {perLanguage, languages?} → the sample grown under the same seed; items per language before and after. */
export const POST = apiRoute<{ id: string }>("campaigns:admin", async ({ request, actor, params }) => {
  const input = extendCampaignSchema.parse(await readJson(request));
  return answer("POST /campaigns/{id}/items", await extendCampaign({ actor, campaignId: params.id, input }));
});
