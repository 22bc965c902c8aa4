import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import type { CriticRunStatus } from "@/lib/server/critics/queries";

export type ChangeCriticRunStatusParams = {
  actor: Actor | SystemActor;
  runId: string;
  action: "pause" | "resume" | "cancel";
};

const TRANSITIONS: Record<"pause" | "resume" | "cancel", { from: CriticRunStatus[]; to: CriticRunStatus }> = {
  pause: { from: ["RUNNING"], to: "PAUSED" },
  resume: { from: ["PAUSED"], to: "RUNNING" },
  cancel: { from: ["RUNNING", "PAUSED"], to: "CANCELLED" },
};

/**
 * Pauses, resumes or cancels a run (a conditional update plus an audit row); a worker stops asking
 * at its next record. CONFLICT when the run is not in a state that allows it. Scope: critics:admin.
 */
export async function changeCriticRunStatus({
  actor,
  runId,
  action,
}: ChangeCriticRunStatusParams): Promise<CriticRunStatus> {
  assertCan(actor, "critics:admin");
  const { from, to } = TRANSITIONS[action];
  return prisma().$transaction(async (tx) => {
    const changed = await tx.criticRun.updateMany({
      where: { id: runId, status: { in: from } },
      data: { status: to, ...(to === "CANCELLED" ? { finishedAt: new Date() } : {}) },
    });
    if (changed.count === 0) {
      const exists = await tx.criticRun.findUnique({ where: { id: runId }, select: { status: true } });
      if (!exists) throw new AppError("NOT_FOUND", "No such critic run.");
      throw new AppError("CONFLICT", `The run is ${exists.status.toLowerCase()}; it cannot ${action}.`);
    }
    await writeAudit(tx, {
      actorId: personIdOf(actor),
      action: `critic.run.${action}`,
      targetType: "CriticRun",
      targetId: runId,
    });
    return to;
  });
}
