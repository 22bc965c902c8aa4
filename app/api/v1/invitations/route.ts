import { answer, apiRoute, readJson } from "@/lib/server/http";
import { inviteUser } from "@/lib/server/invitations/links";
import { inviteSchema } from "@/lib/validation/auth";

/** POST /api/v1/invitations with {email, role, languages} → 201 {id, link, expiresAt}: the one-time link to send. */
export const POST = apiRoute("users:admin", async ({ request, actor }) => {
  const input = inviteSchema.parse(await readJson(request));
  return answer("POST /invitations", await inviteUser({ actor, ...input }), { status: 201 });
});
