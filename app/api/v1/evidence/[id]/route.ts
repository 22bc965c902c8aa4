import { getEvidenceProgress } from "@/lib/server/evidence/batches";
import { answer, apiRoute, pathSegment } from "@/lib/server/http";

/** GET /api/v1/evidence/{id} → an evidence batch's progress. */
export const GET = apiRoute<{ id: string }>("records:read", async ({ actor, params }) =>
  answer("GET /evidence/{id}", await getEvidenceProgress({ actor, batchId: pathSegment(params.id) })),
);
