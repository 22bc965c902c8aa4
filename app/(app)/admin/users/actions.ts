"use server";

import { revalidatePath } from "next/cache";

import { createAction } from "@/lib/server/action";
import { revokeInvitation } from "@/lib/server/invitations/invitations";
import { inviteUser, renewInvitationLink } from "@/lib/server/invitations/links";
import { revokeUserApiToken } from "@/lib/server/users/tokens";
import { setUserDisabled, updateUserAccess } from "@/lib/server/users/users";
import {
  invitationIdSchema,
  inviteSchema,
  tokenIdSchema,
  updateAccessSchema,
  userDisabledSchema,
} from "@/lib/validation/auth";

/** Invites a person with a role and languages; returns the link to send them. Scope: users:admin. */
export const inviteUserAction = createAction("users:admin", inviteSchema, async ({ input, actor }) => {
  const invitation = await inviteUser({ actor, ...input });
  revalidatePath("/admin/users");
  return invitation;
});

/** Issues a fresh link for an unused invitation (the old one stops working). Scope: users:admin. */
export const resendInvitationAction = createAction("users:admin", invitationIdSchema, async ({ input, actor }) => {
  const invitation = await renewInvitationLink({ actor, invitationId: input.invitationId });
  revalidatePath("/admin/users");
  return invitation;
});

/** Revokes an unused invitation. Scope: users:admin. */
export const revokeInvitationAction = createAction("users:admin", invitationIdSchema, async ({ input, actor }) => {
  await revokeInvitation({ actor, invitationId: input.invitationId });
  revalidatePath("/admin/users");
  return null;
});

/** Changes a user's role and languages. Scope: users:admin. */
export const updateUserAccessAction = createAction("users:admin", updateAccessSchema, async ({ input, actor }) => {
  await updateUserAccess({ actor, ...input });
  revalidatePath("/admin/users");
  return null;
});

/** Disables a user (their sessions and tokens stop at their next request) or enables them again. Scope: users:admin. */
export const setUserDisabledAction = createAction("users:admin", userDisabledSchema, async ({ input, actor }) => {
  await setUserDisabled({ actor, ...input });
  revalidatePath("/admin/users");
  return null;
});

/** Revokes anyone's API token. Scope: users:admin. */
export const revokeUserTokenAction = createAction("users:admin", tokenIdSchema, async ({ input, actor }) => {
  await revokeUserApiToken({ actor, ...input });
  revalidatePath("/admin/users");
  return null;
});
