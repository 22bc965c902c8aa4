import { checkRecordFlakiness } from "@/lib/server/evidence/jobs";
import { AppError } from "@/lib/server/errors";
import { answer, apiRoute, readJson } from "@/lib/server/http";
import { flakyCheckSchema } from "@/lib/validation/evidence";
import { recordIdSchema } from "@/lib/validation/records";

/** POST /api/v1/records/{id}/flaky with {repeat?} → 201 {flaky, outcomes}: both tests run `repeat` times alone. */
export const POST = apiRoute<{ id: string }>("datasets:verify", async ({ request, actor, params }) => {
  const recordId = recordIdSchema.safeParse(params.id);
  if (!recordId.success) throw new AppError("NOT_FOUND", "No such record.");
  const { repeat } = flakyCheckSchema.parse(await readJson(request));
  return answer("POST /records/{id}/flaky", await checkRecordFlakiness({ actor, recordId: recordId.data, repeat }), {
    status: 201,
  });
});
