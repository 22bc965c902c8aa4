import { formatQueueCursor, parseQueueCursor } from "@/lib/review/queues";
import { listReviewQueue } from "@/lib/server/review/review";
import { answer, apiRoute, parseSearchParams } from "@/lib/server/http";
import { queueQuerySchema } from "@/lib/validation/review";

/** GET /api/v1/campaigns/{id}/disagreements?queue=annotators|critic|execution|flagged&language=&annotator=&category=&cursor= → {items: [{itemId, recordId, title, language, reasons, votes: [{annotator, valid, categories}]}], counts, nextCursor} (50 items a page) */
export const GET = apiRoute<{ id: string }>("reviews:write", async ({ request, actor, params }) => {
  const { queue, language, annotator, category, cursor } = parseSearchParams(request, queueQuerySchema);
  const { counts, items, nextCursor } = await listReviewQueue({
    actor,
    campaignId: params.id,
    filters: { queue, language, annotatorId: annotator, category },
    cursor: parseQueueCursor(cursor),
  });
  return answer("GET /campaigns/{id}/disagreements", {
    counts,
    nextCursor: nextCursor ? formatQueueCursor(nextCursor) : null,
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
