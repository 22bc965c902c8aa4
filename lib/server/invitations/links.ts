import "server-only";

import type { Actor } from "@/lib/server/auth/permissions";
import { config } from "@/lib/server/config";
import { createInvitation, resendInvitation } from "@/lib/server/invitations/invitations";
import type { InvitationLink, InviteInput } from "@/lib/validation/auth";

/** Invites a person and answers the link to send them; the Users page and `POST /api/v1/invitations` call it. */
export async function inviteUser({
  actor,
  ...input
}: { actor: Actor } & Required<InviteInput>): Promise<InvitationLink> {
  const { id, token, expiresAt } = await createInvitation({ actor, ...input });
  return { id, link: invitationUrl(token), expiresAt: expiresAt.toISOString() };
}

/** A fresh link for an unused invitation (the old one stops working), valid for another week. */
export async function renewInvitationLink({
  actor,
  invitationId,
}: {
  actor: Actor;
  invitationId: string;
}): Promise<InvitationLink> {
  const { token, expiresAt } = await resendInvitation({ actor, invitationId });
  return { id: invitationId, link: invitationUrl(token), expiresAt: expiresAt.toISOString() };
}

function invitationUrl(token: string): string {
  return `${config().publicUrl}/invite/${token}`;
}
