import { importRecords, resolveImportMapping } from "@/lib/server/imports/imports";
import { listRecords } from "@/lib/server/records/records";
import { config } from "@/lib/server/config";
import { answer, apiRoute, assertContentLength, limitedBody, parseSearchParams, pathSegment } from "@/lib/server/http";
import { importQuerySchema, recordQuerySchema } from "@/lib/validation/records";

type Params = { name: string };

/** GET /api/v1/datasets/{name}/records?language=&difficulty=&critic=&executable=&outcome=&q=&limit=&cursor= */
export const GET = apiRoute<Params>("records:read", async ({ request, actor, params }) => {
  const { limit, cursor, ...filters } = parseSearchParams(request, recordQuerySchema);
  const page = await listRecords({ actor, datasetName: pathSegment(params.name), filters, limit, cursor });
  return answer("GET /datasets/{name}/records", page);
});

/**
 * POST /api/v1/datasets/{name}/records — body: JSONL or a JSON array, optionally gzipped, streamed.
 * ?skipInvalid=1 imports the valid records; ?mapping=NAME|JSON reads another benchmark's format. 201 with the summary; 422 when nothing was imported;
 * 413 past VERITY_IMPORT_MAX_MB as sent (the gzip reader separately refuses bomb-like inflation).
 */
export const POST = apiRoute<Params>("imports:write", async ({ request, actor, params }) => {
  const { skipInvalid, fileName, mapping } = parseSearchParams(request, importQuerySchema);
  // Checked before a byte of the body is read: a bad mapping imports nothing.
  const fieldMapping = mapping === undefined ? null : resolveImportMapping(mapping);
  const { importMaxBytes } = config();
  assertContentLength(request, importMaxBytes);
  const length = Number(request.headers.get("content-length"));
  const summary = await importRecords({
    actor,
    datasetName: pathSegment(params.name),
    source: limitedBody(request, importMaxBytes),
    skipInvalid,
    origin: request.headers.get("x-verity-client") === "web" ? "web" : "api",
    fileName: fileName ?? null,
    mapping: fieldMapping,
    bytesTotal: Number.isFinite(length) && length > 0 ? length : null,
  });
  const { ok, jobId, dataset, imported, duplicates, skipped, errorCount, errors, byLanguage } = summary;
  return answer(
    "POST /datasets/{name}/records",
    { ok, jobId, dataset, imported, duplicates, skipped, errorCount, errors, byLanguage },
    { status: ok ? 201 : 422 },
  );
});
