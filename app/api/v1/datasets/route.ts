import { listDatasets } from "@/lib/server/records/records";
import { answer, apiRoute } from "@/lib/server/http";

/** GET /api/v1/datasets → [{id, name, records, byLanguage}] */
export const GET = apiRoute("records:read", async ({ actor }) => {
  const datasets = await listDatasets({ actor });
  return answer(
    "GET /datasets",
    datasets.map(({ id, name, records, byLanguage }) => ({ id, name, records, byLanguage })),
  );
});
