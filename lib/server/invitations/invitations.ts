import "server-only";

import type { Role } from "@/lib/generated/prisma/enums";
import type { Actor } from "@/lib/server/auth/permissions";
import { assertCan } from "@/lib/server/auth/guard";
import { hashSecret, newSecret } from "@/lib/server/auth/secrets";
import { AppError } from "@/lib/server/errors";

import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import { hashPassword, normalizeEmail } from "@/lib/server/users/users";

const INVALID_LINK = "This invitation link is invalid, used or expired. Ask your admin for a new one.";

const INVITATION_DAYS = 7;

/** Creates an invitation and returns its one-time token (only its hash is stored). Scope: users:admin. */
export async function createInvitation({
  actor,
  email,
  role,
  languages,
}: {
  actor: Actor;
  email: string;
  role: Role;
  languages: string[];
}): Promise<{ id: string; token: string; expiresAt: Date }> {
  assertCan(actor, "users:admin");
  const normalized = normalizeEmail(email);
  const token = newSecret("inv");
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000);
  const id = await prisma().$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: normalized }, select: { id: true } })) {
      throw new AppError("CONFLICT", `${normalized} already has an account.`, {
        email: ["This person already has an account."],
      });
    }
    const invitation = await tx.invitation.create({
      data: { email: normalized, role, languages, tokenHash: hashSecret(token), expiresAt, invitedById: actor.id },
      select: { id: true },
    });
    await writeAudit(tx, {
      actorId: actor.id,
      action: "invitation.create",
      targetType: "Invitation",
      targetId: invitation.id,
      after: { email: normalized, role, languages },
    });
    return invitation.id;
  });
  return { id, token, expiresAt };
}

export type PendingInvitation = { email: string; role: Role; languages: string[]; expiresAt: Date };

/** The invitation behind a token if it is still open; null when unknown, used or expired. */
export async function findOpenInvitation(token: string): Promise<PendingInvitation | null> {
  return prisma().invitation.findFirst({
    where: { tokenHash: hashSecret(token), acceptedAt: null, expiresAt: { gt: new Date() } },
    select: { email: true, role: true, languages: true, expiresAt: true },
  });
}

export type InvitationRow = PendingInvitation & { id: string; createdAt: Date; status: "open" | "expired" };

/** Invitations not used yet, open or expired, newest first, for the admin's user page. Scope: users:admin. */
export async function listInvitations({ actor }: { actor: Actor }): Promise<InvitationRow[]> {
  assertCan(actor, "users:admin");
  const rows = await prisma().invitation.findMany({
    where: { acceptedAt: null },
    orderBy: { createdAt: "desc" },
    select: { id: true, email: true, role: true, languages: true, expiresAt: true, createdAt: true },
  });
  const now = Date.now();
  return rows.map((row) => ({ ...row, status: row.expiresAt.getTime() > now ? "open" : "expired" }));
}

/**
 * Issues a fresh link for an unused invitation, valid for another INVITATION_DAYS; the old link
 * stops working. (Only the token's hash is stored, so a link cannot be shown twice.) Scope: users:admin.
 */
export async function resendInvitation({
  actor,
  invitationId,
}: {
  actor: Actor;
  invitationId: string;
}): Promise<{ token: string; expiresAt: Date }> {
  assertCan(actor, "users:admin");
  const token = newSecret("inv");
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000);
  await prisma().$transaction(async (tx) => {
    const updated = await tx.invitation.updateMany({
      where: { id: invitationId, acceptedAt: null },
      data: { tokenHash: hashSecret(token), expiresAt },
    });
    if (updated.count !== 1)
      throw new AppError("NOT_FOUND", "No such open invitation (it may have been used or revoked).");
    await writeAudit(tx, {
      actorId: actor.id,
      action: "invitation.resend",
      targetType: "Invitation",
      targetId: invitationId,
      after: { expiresAt: expiresAt.toISOString() },
    });
  });
  return { token, expiresAt };
}

/** Revokes (deletes) an unused invitation; its link stops working. Scope: users:admin. */
export async function revokeInvitation({ actor, invitationId }: { actor: Actor; invitationId: string }): Promise<void> {
  assertCan(actor, "users:admin");
  await prisma().$transaction(async (tx) => {
    const invitation = await tx.invitation.findFirst({
      where: { id: invitationId, acceptedAt: null },
      select: { email: true, role: true },
    });
    const deleted = await tx.invitation.deleteMany({ where: { id: invitationId, acceptedAt: null } });
    if (!invitation || deleted.count !== 1)
      throw new AppError("NOT_FOUND", "No such open invitation (it may have been used or revoked).");
    await writeAudit(tx, {
      actorId: actor.id,
      action: "invitation.revoke",
      targetType: "Invitation",
      targetId: invitationId,
      before: invitation,
    });
  });
}

/**
 * Accepts an invitation: creates the user with the invited role. The token is checked before the
 * costly password hash (a bogus token costs one lookup); the conditional update makes it usable once.
 */
export async function acceptInvitation({
  token,
  name,
  password,
}: {
  token: string;
  name: string | null;
  password: string;
}): Promise<Actor> {
  const open = { tokenHash: hashSecret(token), acceptedAt: null, expiresAt: { gt: new Date() } };
  if (!(await prisma().invitation.count({ where: open }))) throw new AppError("NOT_FOUND", INVALID_LINK);
  const passwordHash = await hashPassword(password);
  return prisma().$transaction(async (tx) => {
    const invitation = await tx.invitation.findFirst({
      where: open,
      select: { id: true, email: true, role: true, languages: true },
    });
    if (!invitation) throw new AppError("NOT_FOUND", INVALID_LINK);
    const claimed = await tx.invitation.updateMany({
      where: { id: invitation.id, acceptedAt: null },
      data: { acceptedAt: new Date() },
    });
    if (claimed.count !== 1) throw new AppError("CONFLICT", "This invitation was just used.");
    if (await tx.user.findUnique({ where: { email: invitation.email }, select: { id: true } })) {
      throw new AppError("CONFLICT", `${invitation.email} already has an account. Sign in instead.`);
    }
    const user = await tx.user.create({
      data: { email: invitation.email, name, passwordHash, role: invitation.role, languages: invitation.languages },
      select: { id: true, email: true, name: true, role: true, languages: true },
    });
    await writeAudit(tx, {
      actorId: user.id,
      action: "invitation.accept",
      targetType: "User",
      targetId: user.id,
      after: { email: user.email, role: user.role },
    });
    return user;
  });
}
