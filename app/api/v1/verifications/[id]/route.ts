import { answer, apiRoute } from "@/lib/server/http";
import { getVerificationProgress } from "@/lib/server/verification/batches";

/** GET /api/v1/verifications/{id} → the batch's progress counters. */
export const GET = apiRoute<{ id: string }>("records:read", async ({ actor, params }) => {
  return answer("GET /verifications/{id}", await getVerificationProgress({ actor, batchId: params.id }));
});
