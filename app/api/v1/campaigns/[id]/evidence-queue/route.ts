import { listEvidenceQueue } from "@/lib/server/review/evidence-queues";
import { answer, apiRoute, parseSearchParams } from "@/lib/server/http";
import { evidenceQueueQuerySchema } from "@/lib/validation/review";

/** GET /api/v1/campaigns/{id}/evidence-queue?reason=weak_tests|flaky|unsolved|critic_vs_execution&weakBelow=&language=&cursor= → {counts, items, nextCursor} (50 items a page, campaign order) */
export const GET = apiRoute<{ id: string }>("reviews:write", async ({ request, actor, params }) => {
  const { reason, weakBelow, language, cursor } = parseSearchParams(request, evidenceQueueQuerySchema);
  return answer(
    "GET /campaigns/{id}/evidence-queue",
    await listEvidenceQueue({ actor, campaignId: params.id, filters: { reason, weakBelow, language }, cursor }),
  );
});
