import { recordSolversPage } from "@/lib/server/solvers/record-solvers-page";
import { answer, apiRoute, parseSearchParams, pathSegment } from "@/lib/server/http";
import { recordSolversQuerySchema } from "@/lib/validation/solutions";

/** GET /api/v1/datasets/{name}/solutions/records?unsolved=1&cursor=&limit= → a page of records with the models that solve each (k of n). */
export const GET = apiRoute<{ name: string }>("records:read", async ({ request, actor, params }) => {
  const { unsolved, cursor, limit } = parseSearchParams(request, recordSolversQuerySchema);
  const page = await recordSolversPage({
    actor,
    datasetName: pathSegment(params.name),
    unsolvedOnly: unsolved,
    cursor: cursor ?? null,
    limit,
  });
  return answer("GET /datasets/{name}/solutions/records", page);
});
