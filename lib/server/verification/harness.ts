import "server-only";

import { type HarnessChoice, harnessChoiceSchema } from "@/lib/records/harness";
import { writeAudit } from "@/lib/server/audit/audit";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { AppError } from "@/lib/server/errors";

/**
 * Sets the harness profile a dataset's languages run with (replacing the whole choice; a language
 * left out runs AutoCodeBench's rules), with an audit row. Batch verification reads it for every run
 * it starts afterwards. Scope: datasets:verify.
 */
export async function setDatasetHarness({
  actor,
  datasetName,
  harness,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  harness: HarnessChoice;
}): Promise<{ dataset: string; harness: HarnessChoice }> {
  assertCan(actor, "datasets:verify");
  return prisma().$transaction(async (tx) => {
    const before = await tx.dataset.findUnique({ where: { name: datasetName }, select: { id: true, harness: true } });
    if (!before) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
    await tx.dataset.update({ where: { id: before.id }, data: { harness }, select: { id: true } });
    await writeAudit(tx, {
      actorId: personIdOf(actor),
      action: "dataset.harness",
      targetType: "Dataset",
      targetId: before.id,
      before: before.harness ?? {},
      after: harness,
    });
    return { dataset: datasetName, harness };
  });
}

/** A dataset's harness choice as stored (a value that is not a choice reads as none). Scope: datasets:verify. */
export async function getDatasetHarness({
  actor,
  datasetName,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
}): Promise<HarnessChoice> {
  assertCan(actor, "datasets:verify");
  const dataset = await prisma().dataset.findUnique({ where: { name: datasetName }, select: { harness: true } });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  const parsed = harnessChoiceSchema.safeParse(dataset.harness);
  return parsed.success ? parsed.data : {};
}
