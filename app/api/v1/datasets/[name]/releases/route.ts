import { answer, apiRoute, parseSearchParams, pathSegment, readJson } from "@/lib/server/http";
import { cutRelease } from "@/lib/server/releases/cut-release";
import { listReleases } from "@/lib/server/releases/queries";
import { releaseCreateSchema, releaseListQuerySchema } from "@/lib/validation/releases";

/** GET /api/v1/datasets/{name}/releases?cursor&limit → {releases: [{name, createdAt, records, excluded, revised}], nextCursor}, newest first. */
export const GET = apiRoute<{ name: string }>("releases:read", async ({ request, actor, params }) => {
  const query = parseSearchParams(request, releaseListQuerySchema);
  return answer(
    "GET /datasets/{name}/releases",
    await listReleases({ actor, datasetName: pathSegment(params.name), ...query }),
  );
});

/**
 * POST /api/v1/datasets/{name}/releases with {name, requireExecutable?} → 201 {name, status: READY,
 * records, excluded, revised} when built in the request, or 202 {name, status: BUILDING} when a job
 * builds it (the list and GET …/releases/{release} say when it is ready).
 */
export const POST = apiRoute<{ name: string }>("releases:write", async ({ request, actor, params }) => {
  const input = releaseCreateSchema.parse(await readJson(request));
  const { id: _id, ...cut } = await cutRelease({ actor, datasetName: pathSegment(params.name), ...input });
  return answer("POST /datasets/{name}/releases", cut, { status: cut.status === "READY" ? 201 : 202 });
});
