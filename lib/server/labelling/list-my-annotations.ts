import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";

import { prisma } from "@/lib/server/db/client";

/** The actor's labels in a campaign, newest first, for their history list. Scope: labels:write. */
export async function listMyAnnotations({
  actor,
  campaignId,
  limit = 200,
}: {
  actor: Actor;
  campaignId: string;
  limit?: number;
}) {
  assertCan(actor, "labels:write");
  return prisma().annotation.findMany({
    where: { userId: actor.id, item: { campaignId } },
    orderBy: { updatedAt: "desc" },
    take: limit,
    select: {
      id: true,
      itemId: true,
      valid: true,
      categories: true,
      note: true,
      revision: true,
      updatedAt: true,
      item: { select: { language: true, record: { select: { id: true, question: true } } } },
    },
  });
}
