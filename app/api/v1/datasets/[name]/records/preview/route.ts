import { config } from "@/lib/server/config";
import { previewImport, resolveImportMapping } from "@/lib/server/imports/imports";
import { answer, apiRoute, assertContentLength, limitedBody, parseSearchParams } from "@/lib/server/http";
import { importPreviewQuerySchema } from "@/lib/validation/records";

/**
 * POST /api/v1/datasets/{name}/records/preview?mapping=&limit= — body: the file (or its start) as for an
 * import. 200 with the first `limit` records as they would be imported and each bad line's reason;
 * nothing is written, so the dataset need not exist yet.
 */
export const POST = apiRoute<{ name: string }>("imports:write", async ({ request, actor }) => {
  const { mapping, limit } = parseSearchParams(request, importPreviewQuerySchema);
  const fieldMapping = mapping === undefined ? null : resolveImportMapping(mapping);
  const { importMaxBytes } = config();
  assertContentLength(request, importMaxBytes);
  const preview = await previewImport({
    actor,
    source: limitedBody(request, importMaxBytes),
    mapping: fieldMapping,
    limit,
  });
  return answer("POST /datasets/{name}/records/preview", preview);
});
