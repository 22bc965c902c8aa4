import { answer, apiRoute } from "@/lib/server/http";
import { getRevisionToCheck } from "@/lib/server/revisions/queries";

/** GET /api/v1/revisions/{id} → the revised record to check blind: {id, recordId, number, language, dataset, content, evidence}. */
export const GET = apiRoute<{ id: string }>("revisions:check", async ({ actor, params }) =>
  answer("GET /revisions/{id}", await getRevisionToCheck({ actor, revisionId: params.id })),
);
