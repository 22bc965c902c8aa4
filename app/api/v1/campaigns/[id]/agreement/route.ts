import { getCampaignAgreement } from "@/lib/server/review/agreement";
import { apiRoute } from "@/lib/server/http";

/** GET /api/v1/campaigns/{id}/agreement → {overall, byLanguage, humanVsCritic, …, countedAt, signals}; undefined metrics are null. */
export const GET = apiRoute<{ id: string }>("reports:export", async ({ actor, params }) =>
  Response.json(await getCampaignAgreement({ actor, campaignId: params.id })),
);
