"use server";

import { revalidatePath } from "next/cache";

import { readConfig } from "@/lib/server/config";
import { createAction } from "@/lib/server/action";
import { createInvitation } from "@/lib/server/db/invitations";
import { revokeUserApiToken } from "@/lib/server/db/tokens";
import { setUserDisabled, updateUserAccess } from "@/lib/server/db/users";
import { inviteSchema, tokenIdSchema, updateAccessSchema, userDisabledSchema } from "@/lib/validation/auth";

/** Invites a person with a role and languages; returns the link to send them. Scope: users:admin. */
export const inviteUserAction = createAction("users:admin", inviteSchema, async ({ input, actor }) => {
  const { token, expiresAt } = await createInvitation({ actor, ...input });
  revalidatePath("/admin/users");
  return { link: `${readConfig().publicUrl}/invite/${token}`, expiresAt: expiresAt.toISOString() };
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
