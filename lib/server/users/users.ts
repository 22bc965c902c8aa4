import "server-only";

import { config } from "@/lib/server/config";
import { isSetupCode } from "@/lib/auth/setup-code";
import type { Role } from "@/lib/generated/prisma/enums";
import { assertCan } from "@/lib/server/auth/guard";
import { comparePassword, type HashPriority, hashPassword } from "@/lib/server/auth/password-hasher";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";

const actorSelect = { id: true, email: true, name: true, role: true, languages: true } as const;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export { hashPassword };

/**
 * The actor of a browser session, re-read from the database so role changes apply at once; null if
 * the user is disabled or gone, or signed out (or was disabled) after `signedInAt` (ms since epoch).
 */
export async function findActorBySession({
  userId,
  signedInAt,
}: {
  userId: string;
  signedInAt: number;
}): Promise<Actor | null> {
  return prisma().user.findFirst({
    where: {
      id: userId,
      disabledAt: null,
      OR: [{ sessionsRevokedAt: null }, { sessionsRevokedAt: { lte: new Date(signedInAt) } }],
    },
    select: actorSelect,
  });
}

/** Ends every session the user signed in before now (sign-out): their old session cookies stop working. */
export async function revokeSessions({ userId }: { userId: string }): Promise<void> {
  await prisma().$transaction(async (tx) => {
    const result = await tx.user.updateMany({ where: { id: userId }, data: { sessionsRevokedAt: new Date() } });
    if (result.count === 1)
      await writeAudit(tx, { actorId: userId, action: "user.sign-out", targetType: "User", targetId: userId });
  });
}

/** The actor for an email (OAuth sign-in maps to invited users only); null if unknown or disabled. */
export async function findActorByEmail(email: string): Promise<Actor | null> {
  return prisma().user.findFirst({ where: { email: normalizeEmail(email), disabledAt: null }, select: actorSelect });
}

/** Checks an email and password; returns the actor or null. Runs bcrypt even for unknown emails to keep timing flat. */
export async function verifyPassword({
  email,
  password,
  priority = "other",
}: {
  email: string;
  password: string;
  priority?: HashPriority;
}): Promise<Actor | null> {
  const user = await prisma().user.findFirst({
    where: { email: normalizeEmail(email), disabledAt: null },
    select: { ...actorSelect, passwordHash: true },
  });
  const ok = await comparePassword(
    password,
    user?.passwordHash ?? "$2b$12$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva",
    priority,
  );
  if (!user || !user.passwordHash || !ok) return null;
  const { passwordHash: _hash, ...actor } = user;
  return actor;
}

export async function countUsers(): Promise<number> {
  return prisma().user.count();
}

/**
 * Creates the first admin, only while there are no users at all, and only with the setup code the
 * server printed at start (whoever reaches a fresh install first must not become its admin). The
 * code and the user count are checked before the costly hash; a transaction-scoped advisory lock
 * makes two simultaneous attempts create one admin.
 */
export async function createFirstAdmin(input: {
  email: string;
  name: string | null;
  password: string;
  setupCode: string;
}): Promise<Actor> {
  const secret = config().authSecret;
  if (!secret) throw new Error("NEXTAUTH_SECRET is not set; start Verity with `npm start`, which sets it.");
  if (!isSetupCode(input.setupCode, secret)) {
    throw new AppError("INVALID_INPUT", "That is not the setup code.", {
      setupCode: ["Copy the setup code from the console where Verity was started."],
    });
  }
  if ((await countUsers()) > 0) throw new AppError("CONFLICT", "An admin already exists. Sign in instead.");
  const passwordHash = await hashPassword(input.password);
  return prisma().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(4242001)`;
    if ((await tx.user.count()) > 0) throw new AppError("CONFLICT", "An admin already exists. Sign in instead.");
    const user = await tx.user.create({
      data: { email: normalizeEmail(input.email), name: input.name, passwordHash, role: "ADMIN", languages: [] },
      select: actorSelect,
    });
    await writeAudit(tx, {
      actorId: user.id,
      action: "user.create-first-admin",
      targetType: "User",
      targetId: user.id,
      after: { email: user.email, role: user.role },
    });
    return user;
  });
}

/** Creates or updates a user from the operator CLI (the system actor: the operator has shell access). Scope: users:admin. */
export async function upsertUserFromCli(input: {
  actor: SystemActor;
  email: string;
  role: Role;
  languages: string[];
  password?: string;
}): Promise<{ actor: Actor; created: boolean }> {
  assertCan(input.actor, "users:admin");
  const email = normalizeEmail(input.email);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  return prisma().$transaction(async (tx) => {
    const existing = await tx.user.findUnique({ where: { email }, select: actorSelect });
    const user = await tx.user.upsert({
      where: { email },
      create: { email, role: input.role, languages: input.languages, passwordHash: passwordHash ?? null },
      update: { role: input.role, languages: input.languages, ...(passwordHash ? { passwordHash } : {}) },
      select: actorSelect,
    });
    await writeAudit(tx, {
      actorId: personIdOf(input.actor),
      action: existing ? "user.update" : "user.create",
      targetType: "User",
      targetId: user.id,
      before: existing ? { role: existing.role, languages: existing.languages } : undefined,
      after: { email, role: user.role, languages: user.languages, via: "cli" },
    });
    return { actor: user, created: !existing };
  });
}

export type UserRow = Actor & { createdAt: Date; disabled: boolean; hasPassword: boolean };

/** All users, for the admin's user list. Scope: users:admin. */
export async function listUsers({ actor }: { actor: Actor }): Promise<UserRow[]> {
  assertCan(actor, "users:admin");
  const users = await prisma().user.findMany({
    orderBy: { createdAt: "asc" },
    select: { ...actorSelect, createdAt: true, disabledAt: true, passwordHash: true },
  });
  return users.map(({ disabledAt, passwordHash, ...user }) => ({
    ...user,
    disabled: disabledAt !== null,
    hasPassword: passwordHash !== null,
  }));
}

/** Changes a user's role and languages; an admin cannot demote themselves (there must stay an admin). */
export async function updateUserAccess({
  actor,
  userId,
  role,
  languages,
}: {
  actor: Actor;
  userId: string;
  role: Role;
  languages: string[];
}): Promise<void> {
  assertCan(actor, "users:admin");
  if (userId === actor.id && role !== "ADMIN") throw new AppError("CONFLICT", "You cannot remove your own admin role.");
  await prisma().$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: userId }, select: { role: true, languages: true } });
    if (!before) throw new AppError("NOT_FOUND", "No such user.");
    await tx.user.update({ where: { id: userId }, data: { role, languages } });
    await writeAudit(tx, {
      actorId: actor.id,
      action: "user.update",
      targetType: "User",
      targetId: userId,
      before,
      after: { role, languages },
    });
  });
}

/**
 * Disables or re-enables a user. Scope: users:admin. Disabling ends their sessions and API tokens at
 * their next request (both lookups skip disabled users); re-enabling does not revive sessions signed
 * in before the disabling. An admin cannot disable themselves.
 */
export async function setUserDisabled({
  actor,
  userId,
  disabled,
}: {
  actor: Actor;
  userId: string;
  disabled: boolean;
}): Promise<void> {
  assertCan(actor, "users:admin");
  if (userId === actor.id) throw new AppError("CONFLICT", "You cannot disable your own account.");
  await prisma().$transaction(async (tx) => {
    const now = new Date();
    const result = await tx.user.updateMany({
      where: { id: userId, disabledAt: disabled ? null : { not: null } },
      data: disabled ? { disabledAt: now, sessionsRevokedAt: now } : { disabledAt: null },
    });
    if (result.count !== 1) {
      const exists = await tx.user.count({ where: { id: userId } });
      throw exists
        ? new AppError("CONFLICT", disabled ? "This user is already disabled." : "This user is not disabled.")
        : new AppError("NOT_FOUND", "No such user.");
    }
    await writeAudit(tx, {
      actorId: actor.id,
      action: disabled ? "user.disable" : "user.enable",
      targetType: "User",
      targetId: userId,
    });
  });
}
