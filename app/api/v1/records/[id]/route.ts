import { getRecord } from "@/lib/server/records/records";
import { AppError } from "@/lib/server/errors";
import { answer, apiRoute } from "@/lib/server/http";
import { recordIdSchema } from "@/lib/validation/records";

/**
 * GET /api/v1/records/{id} → the record with its critic (null while blind mode hides it) and its
 * evidence: {mutation, flaky, solvers}, each null until collected or while the campaign hides it.
 */
export const GET = apiRoute<{ id: string }>("records:read", async ({ actor, params }) => {
  const recordId = recordIdSchema.safeParse(params.id);
  if (!recordId.success) throw new AppError("NOT_FOUND", "No such record.");
  return answer("GET /records/{id}", await getRecord({ actor, id: recordId.data }));
});
