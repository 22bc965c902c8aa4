import { AppError } from "@/lib/server/errors";
import { answer, apiRoute, readJson } from "@/lib/server/http";
import { proposeRecordRevision } from "@/lib/server/revisions/propose-revision";
import { listRecordRevisions } from "@/lib/server/revisions/queries";
import { recordIdSchema } from "@/lib/validation/records";
import { revisionProposalSchema } from "@/lib/validation/revisions";

function recordIdOf(id: string): number {
  const recordId = recordIdSchema.safeParse(id);
  if (!recordId.success) throw new AppError("NOT_FOUND", "No such record.");
  return recordId.data;
}

/** GET /api/v1/records/{id}/revisions → {current, revisions: [{number, status, diffs, reason?, …}]}, newest first. */
export const GET = apiRoute<{ id: string }>("records:read", async ({ actor, params }) =>
  answer("GET /records/{id}/revisions", await listRecordRevisions({ actor, recordId: recordIdOf(params.id) })),
);

/**
 * POST /api/v1/records/{id}/revisions with {question?, canonical_solution?, demo_test_func?,
 * full_test_func?, reason, categories, baseRevision?} → 201 {id, number, changedFields, evidence}.
 */
export const POST = apiRoute<{ id: string }>("revisions:write", async ({ request, actor, params }) => {
  const recordId = recordIdOf(params.id);
  const input = revisionProposalSchema.parse(await readJson(request));
  return answer("POST /records/{id}/revisions", await proposeRecordRevision({ actor, recordId, input }), {
    status: 201,
  });
});
