import { answer, apiRoute, readJson } from "@/lib/server/http";
import { checkRecordRevision } from "@/lib/server/revisions/propose-revision";
import { revisionCheckSchema } from "@/lib/validation/revisions";

/** POST /api/v1/revisions/{id}/check with {valid, categories, note?} → {id, recordId, number, status: ACCEPTED|REJECTED}. */
export const POST = apiRoute<{ id: string }>("revisions:check", async ({ request, actor, params }) => {
  const input = revisionCheckSchema.parse(await readJson(request));
  return answer("POST /revisions/{id}/check", await checkRecordRevision({ actor, revisionId: params.id, input }));
});
