"use server";

import { createPublicAction } from "@/lib/server/action";
import { createFirstAdmin } from "@/lib/server/users/users";
import { firstAdminSchema } from "@/lib/validation/auth";

/** Public, authorised by the setup code: creates the first admin, only while the database has no users. */
export const createFirstAdminAction = createPublicAction(firstAdminSchema, async ({ input }) => {
  const admin = await createFirstAdmin(input);
  return { email: admin.email };
});
