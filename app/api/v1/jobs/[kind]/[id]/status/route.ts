import { answer, apiRoute, pathSegment, readJson } from "@/lib/server/http";
import { controlJob } from "@/lib/server/jobs/control-job";
import { jobActionBodySchema, jobRefSchema } from "@/lib/validation/jobs";

/** POST /api/v1/jobs/{kind}/{id}/status with {action: pause|resume|cancel} → 200 {kind, id, status}. */
export const POST = apiRoute<{ kind: string; id: string }>("records:read", async ({ request, actor, params }) => {
  const { kind, id } = jobRefSchema.parse({ kind: pathSegment(params.kind), id: pathSegment(params.id) });
  const { action } = jobActionBodySchema.parse(await readJson(request));
  return answer("POST /jobs/{kind}/{id}/status", await controlJob({ actor, kind, id, action }));
});
