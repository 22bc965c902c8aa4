import { importGoldAnswers, listGoldAnswers } from "@/lib/server/gold/gold";
import { answer, apiRoute, pathSegment, readBody } from "@/lib/server/http";
import { MAX_GOLD_FILE_BYTES } from "@/lib/validation/gold";

/** GET /api/v1/datasets/{name}/gold → 200 the dataset's gold answers (admins and reviewers; 403 for annotators). */
export const GET = apiRoute<{ name: string }>("gold:read", async ({ actor, params }) => {
  return answer("GET /datasets/{name}/gold", await listGoldAnswers({ actor, datasetName: pathSegment(params.name) }));
});

/** POST /api/v1/datasets/{name}/gold with a JSONL or CSV body → 201 {dataset, imported}; 422 lists bad lines and nothing is written. */
export const POST = apiRoute<{ name: string }>("gold:write", async ({ request, actor, params }) => {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(await readBody(request, MAX_GOLD_FILE_BYTES));
  return answer(
    "POST /datasets/{name}/gold",
    await importGoldAnswers({ actor, datasetName: pathSegment(params.name), text }),
    {
      status: 201,
    },
  );
});
