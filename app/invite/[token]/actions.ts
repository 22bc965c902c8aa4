"use server";

import { createPublicAction } from "@/lib/server/action";
import { acceptInvitation } from "@/lib/server/invitations/invitations";
import { acceptInvitationSchema } from "@/lib/validation/auth";

/** Public, authorised by the invitation token: sets the invitee's password and creates their account. */
export const acceptInvitationAction = createPublicAction(acceptInvitationSchema, async ({ input }) => {
  const user = await acceptInvitation(input);
  return { email: user.email };
});
