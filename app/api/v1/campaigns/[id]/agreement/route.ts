import { getCampaignAgreement } from "@/lib/server/review/agreement";
import { getSignalTrust } from "@/lib/server/review/signal-trust";
import { apiRoute } from "@/lib/server/http";

/** GET /api/v1/campaigns/{id}/agreement → {overall, byLanguage, humanVsCritic, …, signals}; undefined metrics are null. */
export const GET = apiRoute<{ id: string }>("reports:export", async ({ actor, params }) => {
  const [agreement, signals] = await Promise.all([
    getCampaignAgreement({ actor, campaignId: params.id }),
    getSignalTrust({ actor, campaignId: params.id }),
  ]);
  return Response.json({ ...agreement, signals });
});
