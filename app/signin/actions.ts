"use server";

import { type ActionResult, toActionFailure } from "@/lib/server/action";
import { createFirstAdmin } from "@/lib/server/db/users";
import { firstAdminSchema } from "@/lib/validation/auth";
import { z } from "zod";

/** Public: creates the first admin, only while the database has no users. */
export async function createFirstAdminAction(raw: z.input<typeof firstAdminSchema>): Promise<ActionResult<{ email: string }>> {
  const parsed = firstAdminSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, code: "INVALID_INPUT", message: "Please fix the highlighted fields.", fieldErrors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]> };
  try {
    const admin = await createFirstAdmin(parsed.data);
    return { ok: true, data: { email: admin.email } };
  } catch (error) {
    return toActionFailure(error);
  }
}
