import { adjudicateItem } from "@/lib/server/review/review";
import { answer, apiRoute, readJson } from "@/lib/server/http";
import { adjudicationSchema } from "@/lib/validation/review";

/** POST /api/v1/items/{id}/adjudication with {valid, categories, reason, baseRevision?} → 201 first decision / 200 revision / 409 conflicting decision. */
export const POST = apiRoute<{ id: string }>("reviews:write", async ({ request, actor, params }) => {
  const input = adjudicationSchema.parse(await readJson(request));
  const decision = await adjudicateItem({ actor, itemId: params.id, input });
  return answer("POST /items/{id}/adjudication", decision, { status: decision.revision === 1 ? 201 : 200 });
});
