import { getSolutionBatchProgress } from "@/lib/server/solvers/get-solution-batch-progress";
import { answer, apiRoute, pathSegment } from "@/lib/server/http";

/** GET /api/v1/solution-runs/{id} → 200 the run's progress: status, done of total, passed, failed, unavailable, errored. */
export const GET = apiRoute<{ id: string }>("records:read", async ({ actor, params }) => {
  return answer("GET /solution-runs/{id}", await getSolutionBatchProgress({ actor, batchId: pathSegment(params.id) }));
});
