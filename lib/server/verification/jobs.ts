import "server-only";

import { availableParallelism } from "node:os";

import { type Language, parseLanguage } from "@/lib/records/languages";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, SYSTEM_ACTOR, type SystemActor } from "@/lib/server/auth/permissions";
import {
  findDatasetToVerify,
  findRecordToVerify,
  openVerificationBatch,
  recordIdsToQueue,
  type VerificationBatchStart,
  type Verdict,
  writeVerification,
} from "@/lib/server/verification/batches";
import { holdJob, releaseJob } from "@/lib/server/workers/heartbeats";
import { getSandboxRouter, runInSandbox, SandboxError } from "@/lib/server/sandbox";
import { describeBackends } from "@/lib/server/sandbox/config";
import { runSteadily } from "@/lib/server/sandbox/steady";

import { EVIDENCE_QUEUE, startEvidenceWorkers } from "@/lib/server/evidence/jobs";
import { getBoss, stopBoss } from "@/lib/server/workers/boss";
import { verificationJobExpirySeconds } from "@/lib/server/workers/expiry";
import { startHeartbeat, stopHeartbeat } from "@/lib/server/workers/workers";

// Batch verification as a feature: the job queue and the sandbox around the stored batches of
// lib/server/verification/batches.ts. Workers act as the system (SYSTEM_ACTOR.worker).

export const VERIFY_QUEUE = "verify-record";
const ENQUEUE_CHUNK = 1000;

type VerifyJob = { batchId: string; recordId: number };

/** Creates the queue, or brings an existing one's job expiry up to date (docs/deploy.md, "Workers"). */
async function ensureQueue(): Promise<void> {
  const boss = await getBoss();
  const options = { name: VERIFY_QUEUE, retryLimit: 3, retryDelay: 5, expireInSeconds: verificationJobExpirySeconds() };
  const queue = await boss.getQueue(VERIFY_QUEUE);
  if (!queue) await boss.createQueue(VERIFY_QUEUE, options);
  else if (queue.expireInSeconds !== options.expireInSeconds) await boss.updateQueue(VERIFY_QUEUE, options);
}

/**
 * Starts batch verification of a dataset (optionally one language): every record not yet verified
 * (all of them with `force`) gets a queued job. A RUNNING batch with the same scope is resumed
 * instead, so a crashed run picks up where it stopped without rerunning finished records.
 * Scope: datasets:verify (the operator CLI passes the system actor).
 */
export async function startVerification({
  actor,
  datasetName,
  language,
  force,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  language?: Language;
  force: boolean;
}): Promise<VerificationBatchStart> {
  assertCan(actor, "datasets:verify");
  const datasetId = await findDatasetToVerify({ actor, datasetName });
  await ensureQueue();
  const batch = await openVerificationBatch({ actor, datasetId, language, force });
  // Resuming a batch whose process died: its unfinished records are queued again. Jobs the dead
  // process held come back too once their lease expires; verifyRecord writes a record's results
  // once per batch, so the duplicates do nothing.
  const boss = await getBoss();
  for await (const ids of recordIdsToQueue({
    batchId: batch.batchId,
    resumed: batch.resumed,
    pageSize: ENQUEUE_CHUNK,
  })) {
    await boss.insert(
      ids.map((recordId) => ({ name: VERIFY_QUEUE, data: { batchId: batch.batchId, recordId } satisfies VerifyJob })),
    );
  }
  return batch;
}

async function runBoth(record: {
  language: string;
  canonicalSolution: string;
  demoTestFunc: string;
  fullTestFunc: string;
}): Promise<Verdict> {
  try {
    const language = parseLanguage(record.language);
    const demo = await runSteadily(
      { language, solution: record.canonicalSolution, test: record.demoTestFunc },
      runInSandbox,
    );
    const full = await runSteadily(
      { language, solution: record.canonicalSolution, test: record.fullTestFunc },
      runInSandbox,
    );
    return { kind: "ran", demo, full };
  } catch (error) {
    // The isolation failed before the program started: nothing is known about the record, and no
    // other record can run either (writeVerification stops the batch).
    if (error instanceof SandboxError && error.code === "SANDBOX_ISOLATION_FAILED")
      return { kind: "sandbox-error", reason: error.message };
    if (error instanceof SandboxError) return { kind: "unavailable" };
    // Retrying a bug would fail the same way and leave the batch RUNNING for ever.
    console.error(error);
    return { kind: "errored", reason: "the sandbox failed unexpectedly (see the server log)" };
  }
}

/**
 * Verifies one record for a batch: canonical solution against the demo and the full test. A record
 * whose result cannot be stored is marked errored instead, so one bad record never stalls a batch;
 * a job delivered twice (after a crash) finds its results and does nothing.
 */
export async function verifyRecord({ batchId, recordId }: VerifyJob): Promise<void> {
  const record = await findRecordToVerify({ actor: SYSTEM_ACTOR.worker, batchId, recordId });
  if (!record) return;
  await storeVerification({ batchId, recordId, verdict: await runBoth(record) });
}

/**
 * Writes one record's verification (writeVerification). When that fails (a result the database
 * refuses), the record is stored as errored; only when even that fails (the database is down) does
 * it throw, so the job is retried.
 */
export async function storeVerification({
  batchId,
  recordId,
  verdict,
}: VerifyJob & { verdict: Verdict }): Promise<void> {
  const actor = SYSTEM_ACTOR.worker;
  try {
    await writeVerification({ actor, batchId, recordId, verdict });
  } catch (error) {
    if (verdict.kind === "errored") throw error;
    console.error(`verification: the result of record ${recordId} could not be stored:`, error);
    await writeVerification({
      actor,
      batchId,
      recordId,
      verdict: { kind: "errored", reason: "its result could not be stored (see the server log)" },
    });
  }
}

/**
 * Starts `concurrency` workers draining the verification queue in this process; returns their ids.
 * The process beats as a worker (lib/server/workers/workers.ts) and records the jobs it holds, so a
 * killed worker's jobs are retried as soon as its beats stop, not when they expire.
 */
export async function startVerificationWorkers(
  concurrency = Number(process.env.VERITY_WORKER_CONCURRENCY) || availableParallelism(),
): Promise<string[]> {
  await ensureQueue();
  const boss = await getBoss();
  const worker = await startHeartbeat({
    backend: describeBackends(getSandboxRouter().config),
    concurrency,
    // A dead worker's jobs are in either queue; failing an id in the other one does nothing.
    retry: async (jobIds) => {
      await boss.fail(VERIFY_QUEUE, jobIds);
      await boss.fail(EVIDENCE_QUEUE, jobIds);
    },
  });
  const ids: string[] = [];
  for (let index = 0; index < concurrency; index++) {
    let id: string | null = null;
    id = await boss.work<VerifyJob>(VERIFY_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      await holdJob({ workerId: worker.id, jobId: job.id });
      try {
        await verifyRecord(job.data);
      } finally {
        await releaseJob(job.id);
      }
      // pg-boss waits out the rest of the polling interval after a job shorter than it; a worker that
      // just finished one asks for the next at once (an empty queue still polls at the interval).
      if (id) boss.notifyWorker(id);
    });
    ids.push(id);
  }
  // The same processes collect evidence (mutants, repeated runs) through their own queue.
  await startEvidenceWorkers({ workerId: worker.id, concurrency });
  return ids;
}

/** Stops this process's workers: active jobs finish (up to `timeoutMs`), then the worker is removed. */
export async function stopVerificationWorkers(timeoutMs?: number): Promise<void> {
  await stopBoss(timeoutMs);
  await stopHeartbeat();
}
