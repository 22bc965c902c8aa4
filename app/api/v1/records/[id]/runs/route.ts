import { AppError } from "@/lib/server/errors";
import { runRecord } from "@/lib/server/runs/run-record";
import { answer, apiRoute, readJson } from "@/lib/server/http";
import { recordIdSchema } from "@/lib/validation/records";
import { runRequestSchema } from "@/lib/validation/runs";

/**
 * POST /api/v1/records/{id}/runs with {kind: demo|full|both|scratch, solution?, test?} → {runs: [normalised result…]}.
 * A client that disconnects cancels its run (request.signal): the program is killed, nothing stored.
 */
export const POST = apiRoute<{ id: string }>("sandbox:run", async ({ request, actor, params }) => {
  const recordId = recordIdSchema.safeParse(params.id);
  if (!recordId.success) throw new AppError("NOT_FOUND", "No such record.");
  const body = runRequestSchema.parse(await readJson(request));
  const runs = await runRecord({ actor, recordId: recordId.data, ...body, signal: request.signal });
  return answer("POST /records/{id}/runs", { runs }, { status: 201 });
});
