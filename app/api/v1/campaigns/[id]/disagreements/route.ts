import { listReviewQueue } from "@/lib/server/db/review";
import { apiRoute, parseSearchParams } from "@/lib/server/http";
import { queueQuerySchema } from "@/lib/validation/review";

/** GET /api/v1/campaigns/{id}/disagreements?queue=annotators|critic|execution|flagged&language=&annotator=&category= → {items: [{itemId, recordId, title, language, reasons, votes: [{annotator, valid, categories}]}], counts} */
export const GET = apiRoute<{ id: string }>("reviews:write", async ({ request, actor, params }) => {
  const { queue, language, annotator, category } = parseSearchParams(request, queueQuerySchema);
  const { counts, items } = await listReviewQueue({
    actor,
    campaignId: params.id,
    filters: { queue, language, annotatorId: annotator, category },
  });
  return Response.json({
    counts,
    items: items.map(({ itemId, recordId, title, language: itemLanguage, reasons, votes }) => ({
      itemId,
      recordId,
      title,
      language: itemLanguage,
      reasons,
      votes,
    })),
  });
});
