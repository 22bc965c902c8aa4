import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { listCampaigns } from "@/lib/server/campaigns/list-campaigns";
import { answer, apiRoute, readJson } from "@/lib/server/http";
import { createCampaignSchema } from "@/lib/validation/campaigns";

/** GET /api/v1/campaigns → the campaigns the caller can see. */
export const GET = apiRoute("records:read", async ({ actor }) =>
  answer("GET /campaigns", await listCampaigns({ actor })),
);

/** POST /api/v1/campaigns with {dataset, name, languages?, perLanguage?, seed?, overlap?, agreementFraction?, blind?, …} → 201 the campaign with id and itemCount. */
export const POST = apiRoute("campaigns:admin", async ({ request, actor }) => {
  const input = createCampaignSchema.parse(await readJson(request));
  return answer("POST /campaigns", await createCampaign({ actor, input }), { status: 201 });
});
