import { skipItem } from "@/lib/server/labelling/skip-item";
import { apiRoute, readJson } from "@/lib/server/http";
import { skipSchema } from "@/lib/validation/campaigns";

/** POST /api/v1/items/{id}/skip with {reason} → 204; the slot returns to the pool. */
export const POST = apiRoute<{ id: string }>("labels:write", async ({ request, actor, params }) => {
  const { reason } = skipSchema.parse(await readJson(request));
  await skipItem({ actor, itemId: params.id, reason });
  return new Response(null, { status: 204 });
});
