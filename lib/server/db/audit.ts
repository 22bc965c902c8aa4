import "server-only";

import type { Prisma } from "@/lib/generated/prisma/client";

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
