import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { answer, apiRoute, readJson } from "@/lib/server/http";
import { annotationSchema } from "@/lib/validation/campaigns";

/** POST /api/v1/items/{id}/annotations with {valid, categories, note?, testLine?, needsReview?, activeMs?, baseRevision?} → 201 new, 200 revised or unchanged. */
export const POST = apiRoute<{ id: string }>("labels:write", async ({ request, actor, params }) => {
  const input = annotationSchema.parse(await readJson(request));
  const annotation = await submitAnnotation({ actor, itemId: params.id, input });
  return answer("POST /items/{id}/annotations", annotation, { status: annotation.created ? 201 : 200 });
});
