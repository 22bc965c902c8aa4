import { passAtOneByModel } from "@/lib/metrics/solvers";
import { config } from "@/lib/server/config";
import { latestSolutionBatch } from "@/lib/server/solvers/latest-solution-batch";
import { solverCounts } from "@/lib/server/solvers/solver-counts";
import { answer, apiRoute, assertContentLength, limitedBody, parseSearchParams, pathSegment } from "@/lib/server/http";
import { importAndRunSolutions } from "@/lib/server/solvers/jobs";
import { solutionImportQuerySchema } from "@/lib/validation/solutions";

type Params = { name: string };

/** GET /api/v1/datasets/{name}/solutions → 200 {passAtOne: per model, overall and per language; latestRun}. */
export const GET = apiRoute<Params>("records:read", async ({ actor, params }) => {
  const datasetName = pathSegment(params.name);
  const [counts, latestRun] = await Promise.all([
    solverCounts({ actor, datasetName }),
    latestSolutionBatch({ actor, datasetName }),
  ]);
  return answer("GET /datasets/{name}/solutions", {
    dataset: datasetName,
    passAtOne: passAtOneByModel(counts),
    latestRun,
  });
});

/**
 * POST /api/v1/datasets/{name}/solutions?model=&fileName= — body: JSONL or a JSON array of model
 * outputs, optionally gzipped. 201 with the summary and the run's id (its solutions are queued);
 * 422 naming each bad line, nothing imported.
 */
export const POST = apiRoute<Params>("imports:write", async ({ request, actor, params }) => {
  const { model, fileName } = parseSearchParams(request, solutionImportQuerySchema);
  const { importMaxBytes } = config();
  assertContentLength(request, importMaxBytes);
  const summary = await importAndRunSolutions({
    actor,
    datasetName: pathSegment(params.name),
    source: limitedBody(request, importMaxBytes),
    defaultModel: model ?? null,
    origin: "api",
    fileName: fileName ?? null,
  });
  return answer("POST /datasets/{name}/solutions", summary, { status: 201 });
});
