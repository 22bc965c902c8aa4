import { answer, apiRoute } from "@/lib/server/http";
import { renewInvitationLink } from "@/lib/server/invitations/links";

/** POST /api/v1/invitations/{id}/link → 200 {id, link, expiresAt}: a fresh link; the old one stops working. */
export const POST = apiRoute<{ id: string }>("users:admin", async ({ actor, params }) =>
  answer("POST /invitations/{id}/link", await renewInvitationLink({ actor, invitationId: params.id })),
);
