import { findImportJob } from "@/lib/server/imports/imports";
import { answer, apiRoute } from "@/lib/server/http";

/** GET /api/v1/imports/{id} — an import's progress (lines read, bytes, counts, errors). */
export const GET = apiRoute<{ id: string }>("imports:write", async ({ actor, params }) => {
  return answer("GET /imports/{id}", await findImportJob({ actor, jobId: params.id }));
});
