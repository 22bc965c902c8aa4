import { answer, apiRoute, parseSearchParams } from "@/lib/server/http";
import { listRepairs } from "@/lib/server/revisions/queries";
import { repairsQuerySchema } from "@/lib/validation/revisions";

/** GET /api/v1/repairs?cursor&limit → {repairs: [{id, recordId, number, language, dataset, title, createdAt}], nextCursor}. */
export const GET = apiRoute("revisions:check", async ({ request, actor }) => {
  const query = parseSearchParams(request, repairsQuerySchema);
  return answer("GET /repairs", await listRepairs({ actor, ...query }));
});
