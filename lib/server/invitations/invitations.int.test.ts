// Invitations an admin manages: open and expired ones listed, used ones gone, revoke and resend.
// Only a token's hash is stored, so "resend" issues a fresh link and the old one stops working.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { makeUser, uniqueName } from "@/lib/testing/factories";

import { prisma } from "@/lib/server/db/client";
import {
  acceptInvitation,
  createInvitation,
  findOpenInvitation,
  listInvitations,
  resendInvitation,
  revokeInvitation,
} from "@/lib/server/invitations/invitations";

let admin: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

async function invite() {
  const email = `${uniqueName("inv")}@example.test`;
  const { token } = await createInvitation({ actor: admin, email, role: "ANNOTATOR", languages: ["python"] });
  const { id } = await prisma().invitation.findFirstOrThrow({ where: { email }, select: { id: true } });
  return { email, token, id };
}

describe("invitations", () => {
  it("lists open and expired invitations with their status; used ones leave the list", async () => {
    const open = await invite();
    const expired = await invite();
    const used = await invite();
    await prisma().invitation.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await acceptInvitation({ token: used.token, name: null, password: "correct horse battery" });
    const listed = await listInvitations({ actor: admin });
    expect(listed.find((row) => row.id === open.id)).toMatchObject({ email: open.email, status: "open" });
    expect(listed.find((row) => row.id === expired.id)).toMatchObject({ email: expired.email, status: "expired" });
    expect(listed.find((row) => row.id === used.id)).toBeUndefined();
  });

  it("resend issues a fresh link valid for another week; the old link stops working", async () => {
    const { id, token } = await invite();
    await prisma().invitation.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const resent = await resendInvitation({ actor: admin, invitationId: id });
    expect(resent.token).not.toBe(token);
    expect(resent.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    expect(await findOpenInvitation(token)).toBeNull();
    expect(await findOpenInvitation(resent.token)).not.toBeNull();
    expect((await listInvitations({ actor: admin })).find((row) => row.id === id)?.status).toBe("open");
    expect(await prisma().auditEvent.count({ where: { targetId: id, action: "invitation.resend" } })).toBe(1);
  });

  it("revoke removes the invitation and its link; a used invitation cannot be revoked or resent", async () => {
    const { id, token } = await invite();
    await revokeInvitation({ actor: admin, invitationId: id });
    expect(await findOpenInvitation(token)).toBeNull();
    expect((await listInvitations({ actor: admin })).find((row) => row.id === id)).toBeUndefined();
    expect(await prisma().auditEvent.count({ where: { targetId: id, action: "invitation.revoke" } })).toBe(1);
    await expect(revokeInvitation({ actor: admin, invitationId: id })).rejects.toMatchObject({ code: "NOT_FOUND" });

    const used = await invite();
    await acceptInvitation({ token: used.token, name: null, password: "correct horse battery" });
    await expect(resendInvitation({ actor: admin, invitationId: used.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(revokeInvitation({ actor: admin, invitationId: used.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("is for admins only", async () => {
    const reviewer = await makeUser("REVIEWER");
    await expect(listInvitations({ actor: reviewer })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(resendInvitation({ actor: reviewer, invitationId: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(revokeInvitation({ actor: reviewer, invitationId: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
