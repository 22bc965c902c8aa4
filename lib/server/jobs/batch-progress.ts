import "server-only";

import type { Prisma } from "@/lib/generated/prisma/client";
import { writeAudit } from "@/lib/server/audit/audit";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";

// A batch's progress as its items finish, and its pause and stop: the job engine's data side
// (engine.ts drives the queue, so the layer rule keeps queries out of it). Shared by the batch tables
// whose lifecycle is RUNNING → SUCCEEDED after the last item: VerificationBatch, EvidenceBatch and
// SolutionBatch; pausing and stopping by the first two.

/** The transaction an audit row is written in. */
type AuditWriter = Parameters<typeof writeAudit>[0];

/** What counting needs of a batch table's delegate inside a transaction (`tx.evidenceBatch` …). */
type CountedBatches = {
  update(args: {
    where: { id: string };
    data: Partial<Record<string, { increment: number }>>;
    select: { done: true; total: true };
  }): PromiseLike<{ done: number; total: number }>;
  updateMany(args: {
    where: { id: string; status: "RUNNING" };
    data: { status: "SUCCEEDED"; finishedAt: Date };
  }): PromiseLike<{ count: number }>;
};

/** What a table's delegate takes to update a row. */
type UpdateData<Batches> = Prisma.Args<Batches, "update">["data"];

/** The integer columns of a batch table: the counters a finished item may move. */
type CounterOf<Batches> = {
  [Column in keyof UpdateData<Batches>]-?: Prisma.IntFieldUpdateOperationsInput extends UpdateData<Batches>[Column]
    ? Column
    : never;
}[keyof UpdateData<Batches>] &
  string;

/**
 * Counts one finished item on its batch (`done`, and each of `counters` by one) and, after its
 * last, closes the batch SUCCEEDED if it is still RUNNING. With `canSucceed` false the caller stops
 * the batch itself (a sandbox that cannot run anything). Inside the caller's transaction, which
 * writes the item's result; no permission check: that write checks it.
 */
export async function countFinishedItem<Batches extends CountedBatches>(
  batches: Batches,
  {
    batchId,
    counters,
    canSucceed = true,
  }: { batchId: string; counters: readonly CounterOf<Batches>[]; canSucceed?: boolean },
): Promise<void> {
  const data: Partial<Record<string, { increment: number }>> = { done: { increment: 1 } };
  for (const counter of counters) data[counter] = { increment: 1 };
  const batch = await batches.update({ where: { id: batchId }, data, select: { done: true, total: true } });
  if (canSucceed && batch.done >= batch.total)
    await batches.updateMany({
      where: { id: batchId, status: "RUNNING" },
      data: { status: "SUCCEEDED", finishedAt: new Date() },
    });
}

/** What pausing and stopping need of a batch table's delegate inside a transaction. */
type ControlledBatches = {
  updateMany(args: {
    where: { id: string; status: "RUNNING"; pausedAt?: null | { not: null } };
    data: { pausedAt: Date | null } | { status: "FAILED"; finishedAt: Date; stopReason: string; cancelledAt?: Date };
  }): PromiseLike<{ count: number }>;
  findUniqueOrThrow(args: { where: { id: string }; select: { datasetId: true } }): PromiseLike<{ datasetId: string }>;
};

/** Where a batch's pause, resume, cancel and stop are audited: `<prefix>.pause` and so on. */
type AuditPrefix = "dataset.evidence" | "dataset.verify";

/**
 * Pauses or resumes a RUNNING batch: a conditional update, so a second click changes nothing, with
 * its audit row. Returns whether it changed. Inside the caller's transaction. Scope: datasets:verify
 * (evidence batches and verifications both ask it).
 */
export async function setBatchPaused(
  batches: ControlledBatches,
  {
    tx,
    actor,
    batchId,
    isPaused,
    auditAs,
  }: { tx: AuditWriter; actor: Actor | SystemActor; batchId: string; isPaused: boolean; auditAs: AuditPrefix },
): Promise<boolean> {
  assertCan(actor, "datasets:verify");
  const changed = await batches.updateMany({
    where: { id: batchId, status: "RUNNING", pausedAt: isPaused ? null : { not: null } },
    data: { pausedAt: isPaused ? new Date() : null },
  });
  if (changed.count === 0) return false;
  await auditBatch(batches, { tx, actor, batchId, action: `${auditAs}.${isPaused ? "pause" : "resume"}` });
  return true;
}

/**
 * Ends a RUNNING batch FAILED with its reason, audited; a person's cancel also says when, so results
 * still in flight are dropped. Returns whether it changed. Inside the caller's transaction. Scope:
 * datasets:verify.
 */
export async function stopBatch(
  batches: ControlledBatches,
  {
    tx,
    actor,
    batchId,
    reason,
    isCancel,
    auditAs,
  }: {
    tx: AuditWriter;
    actor: Actor | SystemActor;
    batchId: string;
    reason: string;
    isCancel: boolean;
    auditAs: AuditPrefix;
  },
): Promise<boolean> {
  assertCan(actor, "datasets:verify");
  const now = new Date();
  const stopped = await batches.updateMany({
    where: { id: batchId, status: "RUNNING" },
    data: { status: "FAILED", finishedAt: now, stopReason: reason, ...(isCancel ? { cancelledAt: now } : {}) },
  });
  if (stopped.count === 0) return false;
  await auditBatch(batches, {
    tx,
    actor,
    batchId,
    action: `${auditAs}.${isCancel ? "cancel" : "stop"}`,
    after: { reason },
  });
  return true;
}

/** The audit row of a change to a batch, on its dataset. */
async function auditBatch(
  batches: ControlledBatches,
  {
    tx,
    actor,
    batchId,
    action,
    after = {},
  }: { tx: AuditWriter; actor: Actor | SystemActor; batchId: string; action: string; after?: object },
): Promise<void> {
  const { datasetId } = await batches.findUniqueOrThrow({ where: { id: batchId }, select: { datasetId: true } });
  await writeAudit(tx, {
    actorId: personIdOf(actor),
    action,
    targetType: "Dataset",
    targetId: datasetId,
    after: { batchId, ...after },
  });
}
