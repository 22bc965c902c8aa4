import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, isSystemActor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { hashSecret, newSecret } from "@/lib/server/auth/secrets";
import { AppError } from "@/lib/server/errors";

import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";

export type TokenRow = {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

/**
 * Creates a personal API token for a user; returns the secret once (only its hash is kept). A person
 * creates their own tokens; the system actor (operator CLI) anyone's. Scope: tokens:write.
 */
export async function createApiToken({
  actor,
  userId,
  name,
}: {
  actor: Actor | SystemActor;
  userId: string;
  name: string;
}): Promise<{ token: string; row: TokenRow }> {
  assertCan(actor, "tokens:write");
  if (!isSystemActor(actor) && actor.id !== userId)
    throw new AppError("FORBIDDEN", "You create tokens for yourself only.");
  const token = newSecret("vty");
  const row = await prisma().$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: { userId, name, prefix: token.slice(0, 10), tokenHash: hashSecret(token) },
      select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
    });
    await writeAudit(tx, {
      actorId: personIdOf(actor),
      action: "token.create",
      targetType: "ApiToken",
      targetId: created.id,
      after: { userId, name },
    });
    return created;
  });
  return { token, row };
}

/** The actor behind a bearer token, or null when unknown, revoked, or its owner is disabled. */
export async function findActorByToken(token: string): Promise<Actor | null> {
  // One query with its owner (Prisma's nested select is two): every API request asks it.
  const [row] = await prisma().$queryRaw<({ tokenId: string; lastUsedAt: Date | null } & Actor)[]>`
    SELECT t.id AS "tokenId", t."lastUsedAt", u.id, u.email, u.name, u.role::text AS role, u.languages
    FROM "ApiToken" t JOIN "User" u ON u.id = t."userId"
    WHERE t."tokenHash" = ${hashSecret(token)} AND t."revokedAt" IS NULL AND u."disabledAt" IS NULL
    LIMIT 1`;
  if (!row) return null;
  const { tokenId, lastUsedAt, ...actor } = row;
  // Touch lastUsedAt at most once a minute to keep API calls from writing on every request.
  if (!lastUsedAt || Date.now() - lastUsedAt.getTime() > 60_000) {
    await prisma().apiToken.update({ where: { id: tokenId }, data: { lastUsedAt: new Date() } });
  }
  return actor;
}

/** The actor's own tokens, newest first. */
export async function listApiTokens({ actor }: { actor: Actor }): Promise<TokenRow[]> {
  assertCan(actor, "tokens:write");
  return prisma().apiToken.findMany({
    where: { userId: actor.id },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

/** Revokes one of the actor's own tokens (scoped by owner: someone else's token is NOT_FOUND). */
export async function revokeApiToken({ actor, tokenId }: { actor: Actor; tokenId: string }): Promise<void> {
  assertCan(actor, "tokens:write");
  await revokeWhere(actor, { id: tokenId, userId: actor.id });
}

export type UserTokenRow = TokenRow & { owner: { id: string; email: string } };

/** Every user's active tokens, newest first, for the admin's user page. Scope: users:admin. */
export async function listActiveApiTokens({ actor }: { actor: Actor }): Promise<UserTokenRow[]> {
  assertCan(actor, "users:admin");
  const rows = await prisma().apiToken.findMany({
    where: { revokedAt: null },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      name: true,
      prefix: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
      user: { select: { id: true, email: true } },
    },
  });
  return rows.map(({ user, ...row }) => ({ ...row, owner: user }));
}

/** Revokes anyone's token (a leaked token, a person who left). Scope: users:admin. */
export async function revokeUserApiToken({ actor, tokenId }: { actor: Actor; tokenId: string }): Promise<void> {
  assertCan(actor, "users:admin");
  await revokeWhere(actor, { id: tokenId });
}

async function revokeWhere(actor: Actor, where: { id: string; userId?: string }): Promise<void> {
  await prisma().$transaction(async (tx) => {
    const result = await tx.apiToken.updateMany({
      where: { ...where, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (result.count !== 1) throw new AppError("NOT_FOUND", "No such active token.");
    await writeAudit(tx, { actorId: actor.id, action: "token.revoke", targetType: "ApiToken", targetId: where.id });
  });
}
