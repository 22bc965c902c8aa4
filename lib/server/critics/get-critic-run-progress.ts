import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, type SystemActor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { prisma } from "@/lib/server/db/client";
import { type CriticRunProgress, runSelect, toProgress } from "@/lib/server/critics/queries";

/** A run's counters (NOT_FOUND when none). Scope: critics:read. */
export async function getCriticRunProgress({
  actor,
  runId,
}: {
  actor: Actor | SystemActor;
  runId: string;
}): Promise<CriticRunProgress> {
  assertCan(actor, "critics:read");
  const row = await prisma().criticRun.findUnique({ where: { id: runId }, select: runSelect });
  if (!row) throw new AppError("NOT_FOUND", "No such critic run.");
  return toProgress(row);
}
