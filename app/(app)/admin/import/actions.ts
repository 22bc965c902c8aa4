"use server";

import { createAction } from "@/lib/server/action";
import { previewImport, resolveImportMapping } from "@/lib/server/imports/imports";
import { importPreviewInputSchema } from "@/lib/validation/records";

/**
 * The upload page's preview: the first records of the file's opening text read through the chosen
 * format, as POST /api/v1/datasets/{name}/records/preview does; writes nothing. Scope: imports:write.
 */
export const previewImportAction = createAction("imports:write", importPreviewInputSchema, async ({ input, actor }) => {
  const mapping = input.mapping ? resolveImportMapping(input.mapping) : null;
  return previewImport({
    actor,
    source: (async function* () {
      yield input.text;
    })(),
    mapping,
    limit: 5,
  });
});
