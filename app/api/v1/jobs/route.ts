import { answer, apiRoute, parseSearchParams } from "@/lib/server/http";
import { listJobs } from "@/lib/server/jobs/list-jobs";
import { jobQuerySchema } from "@/lib/validation/jobs";

/** GET /api/v1/jobs?kind&status&limit&cursor → 200 {jobs, nextCursor}: every kind of long work the caller may read. */
export const GET = apiRoute("records:read", async ({ request, actor }) =>
  answer("GET /jobs", await listJobs({ actor, query: parseSearchParams(request, jobQuerySchema) })),
);
