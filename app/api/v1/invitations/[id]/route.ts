import { revokeInvitation } from "@/lib/server/invitations/invitations";
import { apiRoute } from "@/lib/server/http";

/** DELETE /api/v1/invitations/{id} → 204; the unused invitation's link stops working. */
export const DELETE = apiRoute<{ id: string }>("users:admin", async ({ actor, params }) => {
  await revokeInvitation({ actor, invitationId: params.id });
  return new Response(null, { status: 204 });
});
