"use server";

import { z } from "zod";

import { type ActionResult, toActionFailure } from "@/lib/server/action";
import { acceptInvitation } from "@/lib/server/db/invitations";
import { acceptInvitationSchema } from "@/lib/validation/auth";

/** Public, authorised by the invitation token: sets the invitee's password and creates their account. */
export async function acceptInvitationAction(raw: z.input<typeof acceptInvitationSchema>): Promise<ActionResult<{ email: string }>> {
  const parsed = acceptInvitationSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, code: "INVALID_INPUT", message: "Please fix the highlighted fields.", fieldErrors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]> };
  try {
    const user = await acceptInvitation(parsed.data);
    return { ok: true, data: { email: user.email } };
  } catch (error) {
    return toActionFailure(error);
  }
}
