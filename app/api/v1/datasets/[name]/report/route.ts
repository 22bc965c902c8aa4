import { z } from "zod";

import type { AnswerOf } from "@/lib/api/catalog";

import { reportResponse } from "@/lib/reports/response";
import { getDatasetReport } from "@/lib/server/reports/reports";
import { apiRoute, parseSearchParams, pathSegment } from "@/lib/server/http";

const querySchema = z.object({ format: z.enum(["json", "csv", "md"]).default("json") });

/** GET /api/v1/datasets/{name}/report?format=json|csv|md → the validity report across the dataset's campaigns. */
export const GET = apiRoute<{ name: string }>("reports:export", async ({ request, actor, params }) => {
  const { format } = parseSearchParams(request, querySchema);
  // Its JSON is the catalog's shape: the compiler holds the report to it (the text formats are made from it).
  const report = (await getDatasetReport({
    actor,
    datasetName: pathSegment(params.name),
  })) satisfies AnswerOf<"GET /datasets/{name}/report">;
  return reportResponse({ report, format, name: report.campaign.name, note: `${report.rule} ${report.sampling.note}` });
});
