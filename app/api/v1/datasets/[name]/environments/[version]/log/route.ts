import { environmentLog } from "@/lib/server/environments/environments";
import { AppError } from "@/lib/server/errors";
import { answer, apiRoute, pathSegment } from "@/lib/server/http";
import { environmentVersionSchema } from "@/lib/validation/environments";

/**
 * GET /api/v1/datasets/{name}/environments/{version}/log → 200 {status, log, error}: a version's build
 * log so far (written every 2 s while it builds) and, once it failed, why.
 */
export const GET = apiRoute<{ name: string; version: string }>("datasets:verify", async ({ actor, params }) => {
  const version = environmentVersionSchema.safeParse(params.version);
  if (!version.success) throw new AppError("NOT_FOUND", "Not found.");
  return answer(
    "GET /datasets/{name}/environments/{version}/log",
    await environmentLog({ actor, datasetName: pathSegment(params.name), version: version.data }),
  );
});
