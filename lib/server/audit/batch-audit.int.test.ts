// Batch work is audited like any other change: a new verification batch and a new evidence batch
// each leave one row naming who started it, the dataset and the batch's scope; resuming a running
// batch starts nothing and leaves none. A batch stopped because the sandbox cannot run leaves a row
// saying why.
import { describe, expect, it } from "vitest";

import { prisma } from "@/lib/server/db/client";
import { openEvidenceBatch, stopEvidenceBatch } from "@/lib/server/evidence/batches";
import { importRecords } from "@/lib/server/imports/imports";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { openVerificationBatch } from "@/lib/server/verification/batches";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { parseAuditQuery } from "@/components/audit/audit-query";

async function datasetOfTwo() {
  const admin = await makeUser("ADMIN");
  const datasetName = uniqueName("batch-audit");
  const seed = datasetName.replaceAll("-", "_");
  await importRecords({
    actor: admin,
    datasetName,
    source: chunks(toJsonl([makeRecord(`${seed}_a`), makeRecord(`${seed}_b`)])),
    skipInvalid: false,
    origin: "api",
  });
  const { id } = await prisma().dataset.findUniqueOrThrow({ where: { name: datasetName }, select: { id: true } });
  return { admin, datasetName, datasetId: id };
}

const eventsOf = (datasetId: string, action: string) =>
  prisma().auditEvent.findMany({
    where: { targetType: "Dataset", targetId: datasetId, action },
    select: { actorId: true, after: true },
  });

describe("batch work in the audit log", () => {
  it("a verification batch started leaves a row with who, the dataset and the scope; resuming it leaves none", async () => {
    const { admin, datasetId } = await datasetOfTwo();
    const batch = await openVerificationBatch({ actor: admin, datasetId, force: true, repeat: 3 });
    const again = await openVerificationBatch({ actor: admin, datasetId, force: true, repeat: 3 });
    expect(again).toMatchObject({ batchId: batch.batchId, resumed: true });
    expect(await eventsOf(datasetId, "dataset.verify")).toEqual([
      {
        actorId: admin.id,
        after: { batchId: batch.batchId, language: null, force: true, repeat: 3, records: 2 },
      },
    ]);
  });

  it("an evidence batch started and stopped leaves a row for each", async () => {
    const { admin, datasetName, datasetId } = await datasetOfTwo();
    const batch = await openEvidenceBatch({ actor: admin, datasetName, mutants: 4, repeat: 0 });
    await openEvidenceBatch({ actor: admin, datasetName, mutants: 4, repeat: 0 });
    expect(await eventsOf(datasetId, "dataset.evidence")).toEqual([
      {
        actorId: admin.id,
        after: { batchId: batch.batchId, language: null, mutants: 4, repeat: 0, records: 2 },
      },
    ]);
    await stopEvidenceBatch({ actor: SYSTEM_ACTOR.worker, batchId: batch.batchId, reason: "no sandbox" });
    expect(await eventsOf(datasetId, "dataset.evidence.stop")).toEqual([
      { actorId: null, after: { batchId: batch.batchId, reason: "no sandbox" } },
    ]);
  });

  it("the audit page's filter finds them under dataset events", () => {
    expect(parseAuditQuery({ action: "dataset." })).toEqual({ action: "dataset." });
  });
});
