import { startEvidence } from "@/lib/server/evidence/jobs";
import { answer, apiRoute, pathSegment, readJson } from "@/lib/server/http";
import { startEvidenceSchema } from "@/lib/validation/evidence";

/**
 * POST /api/v1/datasets/{name}/evidence with {language?, mutants?, repeat?} → 202 {batchId, total,
 * resumed, tasks}: mutation analysis (mutants per record) and the flakiness check (runs per test),
 * drained by the workers; follow it at GET /api/v1/evidence/{batchId}.
 */
export const POST = apiRoute<{ name: string }>("datasets:verify", async ({ request, actor, params }) => {
  const body = startEvidenceSchema.parse(
    request.headers.get("content-length") === "0" ? {} : await readJson(request).catch(() => ({})),
  );
  const batch = await startEvidence({ actor, datasetName: pathSegment(params.name), ...body });
  return answer("POST /datasets/{name}/evidence", batch, { status: 202 });
});
