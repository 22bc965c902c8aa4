import { setDatasetHarness } from "@/lib/server/verification/harness";
import { answer, apiRoute, pathSegment, readJson } from "@/lib/server/http";
import { harnessRequestSchema } from "@/lib/validation/records";

/**
 * PATCH /api/v1/datasets/{name}/harness with {harness: {language: profile}} → 200 {dataset, harness}: the
 * harness profile each language runs with from now on; a language left out runs AutoCodeBench's rules.
 */
export const PATCH = apiRoute<{ name: string }>("datasets:verify", async ({ request, actor, params }) => {
  const { harness } = harnessRequestSchema.parse(await readJson(request));
  return answer(
    "PATCH /datasets/{name}/harness",
    await setDatasetHarness({ actor, datasetName: pathSegment(params.name), harness }),
  );
});
