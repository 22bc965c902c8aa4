import "server-only";

import type { Prisma } from "@/lib/generated/prisma/client";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";

import { prisma } from "./client";

type AuditInput = {
  actorId: string | null;
  action: string;
  targetType: string;
  targetId?: string | null;
  before?: Prisma.InputJsonValue;
  after?: Prisma.InputJsonValue;
};

/** Writes an audit event inside the caller's transaction, so the change and its record commit together. */
export async function writeAudit(tx: Prisma.TransactionClient, event: AuditInput): Promise<void> {
  await tx.auditEvent.create({ data: { ...event, targetId: event.targetId ?? null } });
}

export type AuditFilters = { action?: string; targetType?: string; actorEmail?: string; since?: Date };

/**
 * The audit log, newest first, filterable by action (prefix, e.g. "label."), target type, actor and
 * date, paged by a createdAt/id cursor. Scope: users:admin.
 */
export async function listAuditEvents({ actor, filters, limit = 100, before }: { actor: Actor; filters: AuditFilters; limit?: number; before?: string }) {
  assertCan(actor, "users:admin");
  const cursorEvent = before ? await prisma().auditEvent.findUnique({ where: { id: before }, select: { createdAt: true } }) : null;
  const actorIds = filters.actorEmail ? (await prisma().user.findMany({ where: { email: { contains: filters.actorEmail.toLowerCase() } }, select: { id: true } })).map((user) => user.id) : undefined;
  const rows = await prisma().auditEvent.findMany({
    where: {
      ...(filters.action ? { action: { startsWith: filters.action } } : {}),
      ...(filters.targetType ? { targetType: filters.targetType } : {}),
      ...(actorIds ? { actorId: { in: actorIds } } : {}),
      ...(filters.since ? { createdAt: { gte: filters.since } } : {}),
      // (createdAt, id) order: events in the same millisecond at a page boundary are not skipped.
      ...(cursorEvent && before ? { OR: [{ createdAt: { lt: cursorEvent.createdAt } }, { createdAt: cursorEvent.createdAt, id: { lt: before } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: { id: true, actorId: true, action: true, targetType: true, targetId: true, before: true, after: true, createdAt: true },
  });
  const page = rows.slice(0, limit);
  const actors = await prisma().user.findMany({ where: { id: { in: [...new Set(page.flatMap((row) => (row.actorId ? [row.actorId] : [])))] } }, select: { id: true, email: true } });
  return {
    events: page.map((row) => ({ ...row, actorEmail: row.actorId ? (actors.find((user) => user.id === row.actorId)?.email ?? "(deleted)") : "operator (CLI)" })),
    nextBefore: rows.length > limit ? page[page.length - 1].id : null,
  };
}
