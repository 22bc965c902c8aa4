import "server-only";

import type { PoolClient } from "pg";
import { z } from "zod";

import type { Prisma } from "@/lib/generated/prisma/client";
import { recordTitle } from "@/lib/records/title";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, can } from "@/lib/server/auth/permissions";

import { prisma } from "@/lib/server/db/client";

type AuditInput = {
  actorId: string | null;
  action: string;
  targetType: string;
  targetId?: string | null;
  before?: Prisma.InputJsonValue;
  after?: Prisma.InputJsonValue;
  /** The target's campaign, when the caller has just read it under lock: saves looking it up. */
  campaignId?: string;
};

/** Writes an audit event inside the caller's transaction, so the change and its record commit together. */
export async function writeAudit(tx: Prisma.TransactionClient, event: AuditInput): Promise<void> {
  const targetId = event.targetId ?? null;
  await tx.auditEvent.create({
    data: {
      ...event,
      targetId,
      campaignId: event.campaignId ?? (await campaignOfTarget(tx, event.targetType, targetId)),
    },
  });
}

/**
 * Writes an audit event about a dataset inside a transaction held on a node-postgres connection:
 * the bulk imports stream their rows through `pg` and cannot hold a Prisma transaction. A dataset
 * belongs to no campaign (campaignOfTarget), so only admins read these events.
 */
export async function writeDatasetAudit(
  client: PoolClient,
  event: AuditInput & { targetType: "Dataset" },
): Promise<void> {
  const json = (value: Prisma.InputJsonValue | undefined) => (value === undefined ? null : JSON.stringify(value));
  await client.query(
    `INSERT INTO "AuditEvent" (id, "actorId", action, "targetType", "targetId", before, after) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      `aud_${crypto.randomUUID()}`,
      event.actorId,
      event.action,
      event.targetType,
      event.targetId ?? null,
      json(event.before),
      json(event.after),
    ],
  );
}

/** The campaign an event's target belongs to, which decides whether reviewers may read it. */
async function campaignOfTarget(
  tx: Prisma.TransactionClient,
  targetType: string,
  targetId: string | null,
): Promise<string | null> {
  if (!targetId) return null;
  if (targetType === "Campaign") return targetId;
  if (targetType === "CampaignItem")
    return (
      (await tx.campaignItem.findUnique({ where: { id: targetId }, select: { campaignId: true } }))?.campaignId ?? null
    );
  if (targetType === "Annotation")
    return (
      (await tx.annotation.findUnique({ where: { id: targetId }, select: { item: { select: { campaignId: true } } } }))
        ?.item.campaignId ?? null
    );
  return null;
}

export type AuditFilters = {
  action?: string;
  targetType?: string;
  actorEmail?: string;
  since?: Date;
  campaignId?: string;
};

export type AuditEntry = {
  id: string;
  action: string;
  targetType: string;
  targetId: string | null;
  campaignId: string | null;
  before: unknown;
  after: unknown;
  createdAt: Date;
  /** Who acted, by name or email. */
  actorLabel: string;
  /** What was changed, in words: a campaign, a record, a person. */
  targetLabel: string;
  campaignName: string | null;
};

/**
 * The audit log, newest first, filterable by action (prefix, e.g. "label."), target type, actor,
 * campaign and date, paged by a createdAt/id cursor. Scope: audit:read; admins read every event,
 * reviewers only those of campaigns (labels, decisions, skips, campaign changes).
 */
export async function listAuditEvents({
  actor,
  filters,
  limit = 100,
  before,
}: {
  actor: Actor;
  filters: AuditFilters;
  limit?: number;
  before?: string;
}): Promise<{ events: AuditEntry[]; nextBefore: string | null }> {
  assertCan(actor, "audit:read");
  const cursorEvent = before
    ? await prisma().auditEvent.findUnique({ where: { id: before }, select: { createdAt: true } })
    : null;
  const actorIds = filters.actorEmail
    ? (
        await prisma().user.findMany({
          where: { email: { contains: filters.actorEmail.toLowerCase() } },
          select: { id: true },
        })
      ).map((user) => user.id)
    : undefined;
  const rows = await prisma().auditEvent.findMany({
    where: {
      AND: [
        can(actor, "users:admin") ? {} : { campaignId: { not: null } },
        filters.campaignId ? { campaignId: filters.campaignId } : {},
        filters.action ? { action: { startsWith: filters.action } } : {},
        filters.targetType ? { targetType: filters.targetType } : {},
        actorIds ? { actorId: { in: actorIds } } : {},
        filters.since ? { createdAt: { gte: filters.since } } : {},
        // (createdAt, id) order: events in the same millisecond at a page boundary are not skipped.
        cursorEvent && before
          ? {
              OR: [
                { createdAt: { lt: cursorEvent.createdAt } },
                { createdAt: cursorEvent.createdAt, id: { lt: before } },
              ],
            }
          : {},
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: {
      id: true,
      actorId: true,
      action: true,
      targetType: true,
      targetId: true,
      campaignId: true,
      before: true,
      after: true,
      createdAt: true,
    },
  });
  const page = rows.slice(0, limit);
  const names = await loadAuditNames(page);
  return {
    events: page.map(({ actorId, ...row }) => ({
      ...row,
      actorLabel: actorId ? (names.people.get(actorId) ?? "(deleted user)") : "operator (CLI)",
      targetLabel: describeTarget(row, names),
      campaignName: row.campaignId ? (names.campaigns.get(row.campaignId) ?? "(deleted campaign)") : null,
    })),
    nextBefore: rows.length > limit ? page[page.length - 1].id : null,
  };
}

type AuditNames = Awaited<ReturnType<typeof loadAuditNames>>;

/** Names for a page of events, a handful of batched queries whatever the page size. */
async function loadAuditNames(
  rows: { actorId: string | null; targetType: string; targetId: string | null; campaignId: string | null }[],
) {
  const idsOf = (type: string) => [
    ...new Set(rows.flatMap((row) => (row.targetType === type && row.targetId ? [row.targetId] : []))),
  ];
  const [items, annotations, invitations, tokens, campaigns] = await Promise.all([
    prisma().campaignItem.findMany({
      where: { id: { in: idsOf("CampaignItem") } },
      select: { id: true, recordId: true },
    }),
    prisma().annotation.findMany({
      where: { id: { in: idsOf("Annotation") } },
      select: { id: true, userId: true, item: { select: { recordId: true } } },
    }),
    prisma().invitation.findMany({ where: { id: { in: idsOf("Invitation") } }, select: { id: true, email: true } }),
    prisma().apiToken.findMany({
      where: { id: { in: idsOf("ApiToken") } },
      select: { id: true, name: true, userId: true },
    }),
    prisma().campaign.findMany({
      where: { id: { in: [...new Set(rows.flatMap((row) => (row.campaignId ? [row.campaignId] : [])))] } },
      select: { id: true, name: true },
    }),
  ]);
  const recordIds = [
    ...new Set([...items.map((item) => item.recordId), ...annotations.map((annotation) => annotation.item.recordId)]),
  ];
  const userIds = [
    ...new Set([
      ...rows.flatMap((row) => (row.actorId ? [row.actorId] : [])),
      ...idsOf("User"),
      ...annotations.map((a) => a.userId),
      ...tokens.map((t) => t.userId),
    ]),
  ];
  const [records, users] = await Promise.all([
    // Only the statement's opening is needed for a title.
    prisma().$queryRaw<
      { id: number; head: string }[]
    >`SELECT id, left(question, 2000) AS head FROM "Record" WHERE id = ANY(${recordIds}::int[])`,
    prisma().user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true, name: true } }),
  ]);
  const people = new Map(users.map((user) => [user.id, user.name ? `${user.name} (${user.email})` : user.email]));
  const titles = new Map(records.map((record) => [record.id, recordTitle(record.head)]));
  const recordLabel = (recordId: number) => `record ${recordId} “${titles.get(recordId) ?? "Untitled"}”`;
  return {
    people,
    campaigns: new Map(campaigns.map((campaign) => [campaign.id, campaign.name])),
    items: new Map(items.map((item) => [item.id, recordLabel(item.recordId)])),
    annotations: new Map(
      annotations.map((a) => [
        a.id,
        `Label by ${people.get(a.userId) ?? "(deleted user)"} on ${recordLabel(a.item.recordId)}`,
      ]),
    ),
    invitations: new Map(invitations.map((invitation) => [invitation.id, invitation.email])),
    tokens: new Map(
      tokens.map((token) => [token.id, `Token “${token.name}” of ${people.get(token.userId) ?? "(deleted user)"}`]),
    ),
  };
}

/** What a revoked invitation's audit event kept of it (its `before` column). */
const revokedInvitationSchema = z.object({ email: z.string() });

function describeTarget(
  row: { targetType: string; targetId: string | null; before: unknown },
  names: AuditNames,
): string {
  const id = row.targetId ?? "";
  const gone = `${row.targetType} (deleted)`;
  switch (row.targetType) {
    case "Campaign":
      return names.campaigns.has(id) ? `Campaign “${names.campaigns.get(id)}”` : gone;
    case "CampaignItem": {
      const label = names.items.get(id);
      return label ? label[0].toUpperCase() + label.slice(1) : gone;
    }
    case "Annotation":
      return names.annotations.get(id) ?? gone;
    case "User":
      return names.people.get(id) ?? gone;
    case "Invitation": {
      // A revoked invitation is deleted; its event kept the email.
      const email = names.invitations.get(id) ?? revokedInvitationSchema.safeParse(row.before).data?.email;
      return email ? `Invitation for ${email}` : gone;
    }
    case "ApiToken":
      return names.tokens.get(id) ?? gone;
    default:
      return row.targetId ? `${row.targetType} ${row.targetId}` : row.targetType;
  }
}
