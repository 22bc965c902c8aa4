import "server-only";

import bcrypt from "bcryptjs";

import type { Role } from "@/lib/generated/prisma/enums";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import { writeAudit } from "./audit";
import { prisma } from "./client";

const PASSWORD_COST = 12;
const actorSelect = { id: true, email: true, name: true, role: true, languages: true } as const;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, PASSWORD_COST);
}

/** The actor for a user id, re-read from the database so role changes apply at once; null if disabled or gone. */
export async function findActorById(id: string): Promise<Actor | null> {
  return prisma().user.findFirst({ where: { id, disabledAt: null }, select: actorSelect });
}

/** The actor for an email (OAuth sign-in maps to invited users only); null if unknown or disabled. */
export async function findActorByEmail(email: string): Promise<Actor | null> {
  return prisma().user.findFirst({ where: { email: normalizeEmail(email), disabledAt: null }, select: actorSelect });
}

/** Checks an email and password; returns the actor or null. Runs bcrypt even for unknown emails to keep timing flat. */
export async function verifyPassword({ email, password }: { email: string; password: string }): Promise<Actor | null> {
  const user = await prisma().user.findFirst({
    where: { email: normalizeEmail(email), disabledAt: null },
    select: { ...actorSelect, passwordHash: true },
  });
  const ok = await bcrypt.compare(password, user?.passwordHash ?? "$2b$12$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva");
  if (!user || !user.passwordHash || !ok) return null;
  const { passwordHash: _hash, ...actor } = user;
  return actor;
}

export async function countUsers(): Promise<number> {
  return prisma().user.count();
}

/**
 * Creates the first admin, only while there are no users at all. A transaction-scoped advisory lock
 * makes two simultaneous attempts create one admin.
 */
export async function createFirstAdmin(input: { email: string; name: string | null; password: string }): Promise<Actor> {
  const passwordHash = await hashPassword(input.password);
  return prisma().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(4242001)`;
    if ((await tx.user.count()) > 0) throw new AppError("CONFLICT", "An admin already exists. Sign in instead.");
    const user = await tx.user.create({
      data: { email: normalizeEmail(input.email), name: input.name, passwordHash, role: "ADMIN", languages: [] },
      select: actorSelect,
    });
    await writeAudit(tx, { actorId: user.id, action: "user.create-first-admin", targetType: "User", targetId: user.id, after: { email: user.email, role: user.role } });
    return user;
  });
}

/** Creates or updates a user from the operator CLI (no actor: the operator has shell access). */
export async function upsertUserFromCli(input: { email: string; role: Role; languages: string[]; password?: string }): Promise<{ actor: Actor; created: boolean }> {
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
      actorId: null,
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
  return users.map(({ disabledAt, passwordHash, ...user }) => ({ ...user, disabled: disabledAt !== null, hasPassword: passwordHash !== null }));
}

/** Changes a user's role and languages; an admin cannot demote themselves (there must stay an admin). */
export async function updateUserAccess({ actor, userId, role, languages }: { actor: Actor; userId: string; role: Role; languages: string[] }): Promise<void> {
  assertCan(actor, "users:admin");
  if (userId === actor.id && role !== "ADMIN") throw new AppError("CONFLICT", "You cannot remove your own admin role.");
  await prisma().$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: userId }, select: { role: true, languages: true } });
    if (!before) throw new AppError("NOT_FOUND", "No such user.");
    await tx.user.update({ where: { id: userId }, data: { role, languages } });
    await writeAudit(tx, { actorId: actor.id, action: "user.update", targetType: "User", targetId: userId, before, after: { role, languages } });
  });
}
