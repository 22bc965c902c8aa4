import { apiRoute } from "@/lib/server/http";
import { getVerificationProgress } from "@/lib/server/verification/batches";

/** GET /api/v1/verifications/{id} → the batch's progress counters. */
export const GET = apiRoute<{ id: string }>("records:read", async ({ actor, params }) => {
  return Response.json(await getVerificationProgress({ actor, batchId: params.id }));
});
