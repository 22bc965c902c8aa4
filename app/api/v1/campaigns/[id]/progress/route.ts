import { getCampaignProgress } from "@/lib/server/campaigns/get-campaign-progress";
import { answer, apiRoute } from "@/lib/server/http";

/** GET /api/v1/campaigns/{id}/progress → overall, per-language and the caller's own progress. */
export const GET = apiRoute<{ id: string }>("records:read", async ({ actor, params }) =>
  answer("GET /campaigns/{id}/progress", await getCampaignProgress({ actor, campaignId: params.id })),
);
