import { listEnvironments } from "@/lib/server/environments/environments";
import { startEnvironmentBuild } from "@/lib/server/environments/start-build";
import { answer, apiRoute, parseSearchParams, pathSegment, readJson } from "@/lib/server/http";
import { environmentBuildRequestSchema, environmentListQuerySchema } from "@/lib/validation/environments";

/**
 * GET /api/v1/datasets/{name}/environments?before=N → 200 {dataset, inUse, versions, nextBefore}: the
 * dataset's environment versions, newest first, 20 a page (`before`: the previous page's nextBefore).
 */
export const GET = apiRoute<{ name: string }>("datasets:verify", async ({ request, actor, params }) => {
  const { before } = parseSearchParams(request, environmentListQuerySchema);
  return answer(
    "GET /datasets/{name}/environments",
    await listEnvironments({ actor, datasetName: pathSegment(params.name), before }),
  );
});

/**
 * POST /api/v1/datasets/{name}/environments with {spec: {python?, npm?, go?, maven?, debian?, rust?}} → 202
 * {dataset, version, status: "BUILDING"}: a new version, built in the background; follow it at
 * …/environments/{version}/log. 422 names each bad entry under its kind; 409 while another builds.
 */
export const POST = apiRoute<{ name: string }>("datasets:verify", async ({ request, actor, params }) => {
  const { spec } = environmentBuildRequestSchema.parse(await readJson(request));
  const started = await startEnvironmentBuild({ actor, datasetName: pathSegment(params.name), spec });
  return answer("POST /datasets/{name}/environments", started, { status: 202 });
});
