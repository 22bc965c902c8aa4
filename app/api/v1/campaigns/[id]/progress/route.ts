import { getCampaignProgress } from "@/lib/server/campaigns/get-campaign-progress";
import { apiRoute } from "@/lib/server/http";

/** GET /api/v1/campaigns/{id}/progress → overall, per-language and the caller's own progress. */
export const GET = apiRoute<{ id: string }>("records:read", async ({ actor, params }) =>
  Response.json(await getCampaignProgress({ actor, campaignId: params.id })),
);
