import { answer, apiRoute, pathSegment, readJson } from "@/lib/server/http";
import { startVerification } from "@/lib/server/verification/jobs";
import { startVerificationSchema } from "@/lib/validation/records";

/**
 * POST /api/v1/datasets/{name}/verifications with {language?, force?, repeat?} → 202 {batchId, total,
 * resumed}; workers drain it. `repeat` K also runs each record's tests K times alone to find flaky ones.
 */
export const POST = apiRoute<{ name: string }>("datasets:verify", async ({ request, actor, params }) => {
  const body = startVerificationSchema.parse(
    request.headers.get("content-length") === "0" ? {} : await readJson(request).catch(() => ({})),
  );
  const batch = await startVerification({ actor, datasetName: pathSegment(params.name), ...body });
  return answer("POST /datasets/{name}/verifications", batch, { status: 202 });
});
