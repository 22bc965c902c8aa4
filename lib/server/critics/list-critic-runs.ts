import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, type SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { type CriticRunProgress, runSelect, toProgress } from "@/lib/server/critics/queries";

/** Runs, newest first, a page at a time (keyset on creation time and id). Scope: critics:read. */
export async function listCriticRuns({
  actor,
  before,
  limit = 50,
}: {
  actor: Actor | SystemActor;
  before?: string;
  limit?: number;
}): Promise<{ runs: CriticRunProgress[]; nextBefore: string | null }> {
  assertCan(actor, "critics:read");
  const cursor = before
    ? await prisma().criticRun.findUnique({ where: { id: before }, select: { createdAt: true, id: true } })
    : null;
  const rows = await prisma().criticRun.findMany({
    where: cursor
      ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }
      : {},
    select: runSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit).map(toProgress);
  return { runs: page, nextBefore: rows.length > limit ? page[page.length - 1].runId : null };
}
