import { renewLease } from "@/lib/server/labelling/renew-lease";
import { answer, apiRoute } from "@/lib/server/http";

/** POST /api/v1/items/{id}/lease → {leaseExpiresAt}: extends the caller's lease while they work. */
export const POST = apiRoute<{ id: string }>("labels:write", async ({ actor, params }) =>
  answer("POST /items/{id}/lease", { leaseExpiresAt: await renewLease({ actor, itemId: params.id }) }),
);
