import { z } from "zod";

import { LANGUAGES } from "@/lib/records/languages";
import { apiRoute, pathSegment, readJson } from "@/lib/server/http";
import { startVerification } from "@/lib/server/verification/jobs";

const bodySchema = z.object({ language: z.enum(LANGUAGES).optional(), force: z.boolean().default(false) });

/** POST /api/v1/datasets/{name}/verifications with {language?, force?} → 202 {batchId, total, resumed}; workers drain it. */
export const POST = apiRoute<{ name: string }>("datasets:verify", async ({ request, actor, params }) => {
  const body = bodySchema.parse(
    request.headers.get("content-length") === "0" ? {} : await readJson(request).catch(() => ({})),
  );
  const batch = await startVerification({ actor, datasetName: pathSegment(params.name), ...body });
  return Response.json(batch, { status: 202 });
});
