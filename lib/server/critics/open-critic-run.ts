import "server-only";

import type { Language } from "@/lib/records/languages";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import { isImportedName, type RunScope, SCOPE_WHERE } from "@/lib/server/critics/queries";

export type OpenCriticRunParams = {
  actor: Actor | SystemActor;
  criticName: string;
  datasetName: string;
  language?: Language;
  campaignId?: string;
};

export type CriticRunStart = { runId: string; total: number; resumed: boolean; version: number };

/**
 * Opens a run of a critic's newest version over a dataset (optionally one language, or one
 * campaign's sample). A RUNNING or PAUSED run of the same version and scope is resumed instead, so a
 * crash or a pause never redoes finished records; a new run counts the version's verdicts already
 * stored for the scope as done. Scope: critics:admin.
 */
export async function openCriticRun({
  actor,
  criticName,
  datasetName,
  language,
  campaignId,
}: OpenCriticRunParams): Promise<CriticRunStart> {
  assertCan(actor, "critics:admin");
  if (isImportedName(criticName))
    throw new AppError("INVALID_INPUT", `"${criticName}" holds the record files' verdicts; it cannot be run.`);
  const critic = await prisma().critic.findUnique({
    where: { name: criticName },
    select: { versions: { select: { id: true, number: true }, orderBy: { number: "desc" }, take: 1 } },
  });
  if (!critic) throw new AppError("NOT_FOUND", `No critic named "${criticName}".`);
  const version = critic.versions[0];
  const dataset = await prisma().dataset.findUnique({ where: { name: datasetName }, select: { id: true } });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  if (campaignId) {
    const campaign = await prisma().campaign.findFirst({
      where: { id: campaignId, datasetId: dataset.id },
      select: { id: true },
    });
    if (!campaign) throw new AppError("NOT_FOUND", `No campaign ${campaignId} on dataset "${datasetName}".`);
  }
  const scope: RunScope = {
    versionId: version.id,
    datasetId: dataset.id,
    language: language ?? null,
    campaignId: campaignId ?? null,
  };
  return prisma().$transaction(async (tx) => {
    const open = await tx.criticRun.findFirst({
      where: { ...scope, status: { in: ["RUNNING", "PAUSED"] } },
      select: { id: true, total: true },
      orderBy: { createdAt: "desc" },
    });
    if (open) {
      await tx.criticRun.update({ where: { id: open.id }, data: { status: "RUNNING" } });
      return { runId: open.id, total: open.total, resumed: true, version: version.number };
    }
    const [counts] = await tx.$queryRawUnsafe<
      { total: number; parsed: number; unreadable: number; pass: number; fail: number }[]
    >(
      `SELECT count(*)::int AS total,
              (count(*) FILTER (WHERE cr.status = 'PARSED'))::int AS parsed,
              (count(*) FILTER (WHERE cr.status = 'UNREADABLE'))::int AS unreadable,
              (count(*) FILTER (WHERE cr."overallPass"))::int AS pass,
              (count(*) FILTER (WHERE NOT cr."overallPass"))::int AS fail
       FROM "Record" r
       LEFT JOIN "CriticResult" cr ON cr."versionId" = $4 AND cr."recordId" = r.id AND cr.status <> 'ERROR'
       WHERE ${SCOPE_WHERE}`,
      scope.datasetId,
      scope.language,
      scope.campaignId,
      scope.versionId,
    );
    const done = counts.parsed + counts.unreadable;
    const run = await tx.criticRun.create({
      data: {
        ...scope,
        total: counts.total,
        done,
        parsed: counts.parsed,
        unreadable: counts.unreadable,
        pass: counts.pass,
        fail: counts.fail,
        createdById: personIdOf(actor),
        ...(done === counts.total ? { status: "SUCCEEDED", finishedAt: new Date() } : {}),
      },
      select: { id: true },
    });
    // From now on the version is what this run's verdicts were made with: it no longer changes.
    await tx.criticVersion.updateMany({ where: { id: version.id, usedAt: null }, data: { usedAt: new Date() } });
    await writeAudit(tx, {
      actorId: personIdOf(actor),
      action: "critic.run",
      targetType: "CriticRun",
      targetId: run.id,
      after: {
        critic: criticName,
        version: version.number,
        dataset: datasetName,
        language: scope.language,
        campaignId: scope.campaignId,
      },
    });
    return { runId: run.id, total: counts.total, resumed: false, version: version.number };
  });
}
