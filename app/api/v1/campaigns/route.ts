import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { listCampaigns } from "@/lib/server/campaigns/list-campaigns";
import { answer, apiRoute, readJson } from "@/lib/server/http";
import { createCampaignSchema } from "@/lib/validation/campaigns";

/** GET /api/v1/campaigns → the campaigns the caller can see. */
export const GET = apiRoute("records:read", async ({ actor }) =>
  answer("GET /campaigns", await listCampaigns({ actor })),
);

/**
 * POST /api/v1/campaigns with {dataset, name, languages?, perLanguage?, seed?, overlap?, agreementFraction?, blind?, …}
 * → 201 the campaign with id and itemCount; 202 when its sample is large and a job draws its items
 * (itemDraw.status RUNNING: GET /campaigns/{id} says when it SUCCEEDED).
 */
export const POST = apiRoute("campaigns:admin", async ({ request, actor }) => {
  const input = createCampaignSchema.parse(await readJson(request));
  const campaign = await createCampaign({ actor, input });
  return answer("POST /campaigns", campaign, { status: campaign.itemDraw ? 202 : 201 });
});
