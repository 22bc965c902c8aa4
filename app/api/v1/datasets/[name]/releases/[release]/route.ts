import { answer, apiRoute, pathSegment } from "@/lib/server/http";
import { findRelease } from "@/lib/server/releases/queries";

/** GET /api/v1/datasets/{name}/releases/{release} → the release as stored: counts, rule, validity table, method disclosure. */
export const GET = apiRoute<{ name: string; release: string }>("releases:read", async ({ actor, params }) => {
  const { summary } = await findRelease({
    actor,
    datasetName: pathSegment(params.name),
    name: pathSegment(params.release),
  });
  return answer("GET /datasets/{name}/releases/{release}", summary);
});
