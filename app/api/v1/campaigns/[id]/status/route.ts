import { changeCampaignStatus } from "@/lib/server/campaigns/lifecycle";
import { answer, apiRoute, readJson } from "@/lib/server/http";
import { campaignStatusSchema } from "@/lib/validation/campaigns";

/** POST /api/v1/campaigns/{id}/status with {action: pause|resume|close|reopen|archive|unarchive} → 200 {status, endedLeases}. */
export const POST = apiRoute<{ id: string }>("campaigns:admin", async ({ request, actor, params }) => {
  const { action } = campaignStatusSchema.parse(await readJson(request));
  return answer("POST /campaigns/{id}/status", await changeCampaignStatus({ actor, campaignId: params.id, action }));
});
