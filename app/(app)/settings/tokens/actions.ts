"use server";

import { revalidatePath } from "next/cache";

import { createAction } from "@/lib/server/action";
import { createApiToken, revokeApiToken } from "@/lib/server/users/tokens";
import { tokenIdSchema, tokenNameSchema } from "@/lib/validation/auth";

/** Creates a personal API token for the signed-in user; the secret is shown once. Scope: tokens:write. */
export const createTokenAction = createAction("tokens:write", tokenNameSchema, async ({ input, actor }) => {
  const { token } = await createApiToken({ actor, userId: actor.id, name: input.name });
  revalidatePath("/settings/tokens");
  return { token };
});

/** Revokes one of the signed-in user's tokens. Scope: tokens:write. */
export const revokeTokenAction = createAction("tokens:write", tokenIdSchema, async ({ input, actor }) => {
  await revokeApiToken({ actor, tokenId: input.tokenId });
  revalidatePath("/settings/tokens");
  return null;
});
