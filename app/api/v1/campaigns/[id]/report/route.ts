import { z } from "zod";

import type { AnswerOf } from "@/lib/api/catalog";

import { reportResponse } from "@/lib/reports/response";
import { getCampaignReport } from "@/lib/server/reports/reports";
import { apiRoute, parseSearchParams } from "@/lib/server/http";

const querySchema = z.object({ format: z.enum(["json", "csv", "md"]).default("json") });

/** GET /api/v1/campaigns/{id}/report?format=json|csv|md → the per-language validity report (rates as fractions). */
export const GET = apiRoute<{ id: string }>("reports:export", async ({ request, actor, params }) => {
  const { format } = parseSearchParams(request, querySchema);
  // Its JSON is the catalog's shape: the compiler holds the report to it (the text formats are made from it).
  const report = (await getCampaignReport({
    actor,
    campaignId: params.id,
  })) satisfies AnswerOf<"GET /campaigns/{id}/report">;
  return reportResponse({ report, format, name: report.campaign.name, note: report.sampling.note });
});
