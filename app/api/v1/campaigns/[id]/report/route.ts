import { z } from "zod";

import { reportToCsv, reportToMarkdown } from "@/lib/reports/format";
import { getCampaignReport } from "@/lib/server/db/reports";
import { apiRoute, parseSearchParams } from "@/lib/server/http";

const querySchema = z.object({ format: z.enum(["json", "csv", "md"]).default("json") });

/** GET /api/v1/campaigns/{id}/report?format=json|csv|md → the per-language validity report (rates as fractions). */
export const GET = apiRoute<{ id: string }>("reports:export", async ({ request, actor, params }) => {
  const { format } = parseSearchParams(request, querySchema);
  const report = await getCampaignReport({ actor, campaignId: params.id });
  if (format === "json") return Response.json(report);
  const fileName = `${report.campaign.name}-report.${format}`;
  return new Response(format === "csv" ? reportToCsv(report) : reportToMarkdown(report), {
    headers: { "content-type": format === "csv" ? "text/csv; charset=utf-8" : "text/markdown; charset=utf-8", "content-disposition": `attachment; filename="${fileName.replace(/[^\w.-]/g, "_")}"` },
  });
});
