import { getCampaignAgreement } from "@/lib/server/review/agreement";
import { answer, apiRoute } from "@/lib/server/http";

/** GET /api/v1/campaigns/{id}/agreement → {overall, byLanguage, humanVsCritic, …, countedAt, signals}; undefined metrics are null. */
export const GET = apiRoute<{ id: string }>("reports:export", async ({ actor, params }) =>
  answer("GET /campaigns/{id}/agreement", await getCampaignAgreement({ actor, campaignId: params.id })),
);
