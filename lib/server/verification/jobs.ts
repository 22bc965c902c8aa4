import "server-only";

import { config } from "@/lib/server/config";
import type { Language } from "@/lib/records/languages";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, SYSTEM_ACTOR, type SystemActor } from "@/lib/server/auth/permissions";
import {
  cancelVerificationBatch,
  findDatasetToVerify,
  findRecordToVerify,
  getVerificationProgress,
  openVerificationBatch,
  recordIdsToQueue,
  type Flakiness,
  setVerificationBatchPaused,
  type VerificationBatchStart,
  type Verdict,
  writeVerification,
} from "@/lib/server/verification/batches";
import type { JobAction, JobStatus } from "@/lib/jobs/types";
import { AppError } from "@/lib/server/errors";
import { queueItems, workQueue } from "@/lib/server/jobs/engine";
import { verificationJobExpirySeconds } from "@/lib/server/workers/expiry";
import { getSandboxRouter } from "@/lib/server/sandbox";
import { describeBackends } from "@/lib/server/sandbox/config";
import { runSettingsOfRecord, type RunSettings } from "@/lib/server/environments/run-settings";
import { EVIDENCE_QUEUE, repeatTests, startEvidenceWorkers } from "@/lib/server/evidence/jobs";
import { flakyVerdict } from "@/lib/evidence/flaky";
import { SandboxError } from "@/lib/server/sandbox";
import { runSolution, type SolutionJob } from "@/lib/server/solvers/jobs";
import { getBoss, stopBoss } from "@/lib/server/workers/boss";
import { jobPriority } from "@/lib/server/workers/priority";
import { startHeartbeat, stopHeartbeat } from "@/lib/server/workers/workers";
import {
  DELETE_CAMPAIGN_QUEUE,
  DRAW_ITEMS_QUEUE,
  EXTEND_CAMPAIGN_QUEUE,
  RELEASE_QUEUE,
} from "@/lib/server/workers/queue-names";
import { startCampaignRemovalWorkers } from "@/lib/server/campaigns/deletion-queue";
import { startItemDrawWorkers } from "@/lib/server/campaigns/draw-queue";
import { startExtensionWorkers } from "@/lib/server/campaigns/extension-queue";
import { startReleaseWorkers } from "@/lib/server/releases/release-queue";

import { runBothTests, VERIFY_QUEUE, verifyQueue } from "./queue";

// The queue's name stays importable from here, where its readers found it.
export { VERIFY_QUEUE } from "./queue";

// Batch verification as a feature: the job queue and the sandbox around the stored batches of
// lib/server/verification/batches.ts. Workers act as the system (SYSTEM_ACTOR.worker).

// How long a verification job waits for a database that went away before it fails (and is retried
// once its expiry passes, which leaves two minutes beyond the longest job).
const OUTAGE_WAIT_MS = 60_000;

type VerifyJob = { batchId: string; recordId: number };
/** A job of the verification queue: a record's canonical solution, or a model's solution (lib/server/solvers/jobs.ts). */
type QueueJob = VerifyJob | SolutionJob;

/**
 * Starts batch verification of a dataset (optionally one language): every record not yet verified
 * (all of them with `force`) gets a queued job. A RUNNING batch with the same scope is resumed
 * instead, so a crashed run picks up where it stopped without rerunning finished records. With
 * `repeat` K each record's tests also run K times, each alone, and the record is marked flaky or
 * stable. Scope: datasets:verify (the operator CLI passes the system actor).
 */
export async function startVerification({
  actor,
  datasetName,
  language,
  force,
  repeat = 0,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  language?: Language;
  force: boolean;
  repeat?: number;
}): Promise<VerificationBatchStart> {
  assertCan(actor, "datasets:verify");
  const datasetId = await findDatasetToVerify({ actor, datasetName });
  // Before the batch is opened: a queue that cannot be reached leaves no batch behind.
  await verifyQueue.ensure();
  const batch = await openVerificationBatch({ actor, datasetId, language, force, repeat });
  // Resuming a batch whose process died (or that was paused): its unfinished records are queued
  // again. Jobs the dead process held come back too once their lease expires; verifyRecord writes a
  // record's results once per batch, so the duplicates do nothing.
  await queueRecords({ actor, batchId: batch.batchId, resumed: batch.resumed, repeat });
  return batch;
}

/** Queues a batch's records: all it covers for a new batch, those it has no result for when resumed. */
async function queueRecords({
  actor,
  batchId,
  resumed,
  repeat,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  resumed: boolean;
  repeat: number;
}): Promise<void> {
  await queueItems({
    queue: verifyQueue,
    pages: (pageSize) => recordIdsToQueue({ batchId, resumed, pageSize }),
    toJob: (recordId) => ({
      data: { batchId, recordId } satisfies VerifyJob,
      // The flaky option runs both tests `repeat` more times: the job may last that much longer.
      ...(repeat > 0 ? { expireInSeconds: verificationJobExpirySeconds() * (1 + repeat) } : {}),
    }),
    priority: jobPriority(actor),
  });
}

/**
 * Pauses, resumes or cancels a verification (the Jobs page and the verification's own page).
 * Paused, the workers leave its records (one already running finishes and counts); resumed, the
 * records it has no result for are queued again; cancelled, it ends FAILED with who cancelled it,
 * and a result still in flight is not written. CONFLICT when the batch is not in a state the action
 * applies to. Scope: datasets:verify.
 */
export async function controlVerification({
  actor,
  batchId,
  action,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  action: JobAction;
}): Promise<JobStatus> {
  assertCan(actor, "datasets:verify");
  const progress = await getVerificationProgress({ actor, batchId });
  const isChanged =
    action === "cancel"
      ? await cancelVerificationBatch({ actor, batchId })
      : await setVerificationBatchPaused({ actor, batchId, isPaused: action === "pause" });
  if (!isChanged) {
    const state = progress.isPaused ? "paused" : progress.status.toLowerCase();
    throw new AppError("CONFLICT", `This verification is ${state}: it cannot ${action} now.`);
  }
  if (action === "resume") await queueRecords({ actor, batchId, resumed: true, repeat: progress.repeat });
  return action === "cancel" ? "CANCELLED" : action === "pause" ? "PAUSED" : "RUNNING";
}

/**
 * Verifies one record for a batch: canonical solution against the demo and the full test, and
 * with the batch's flaky option both tests `repeat` times more, each run alone. A record whose
 * result cannot be stored is marked errored instead, so one bad record never stalls a batch; a job
 * delivered twice (after a crash) finds its results and does nothing.
 */
export async function verifyRecord({ batchId, recordId }: VerifyJob): Promise<void> {
  const record = await findRecordToVerify({ actor: SYSTEM_ACTOR.worker, batchId, recordId });
  if (!record) return;
  const settings = await runSettingsOfRecord(recordId);
  const verdict = await runBothTests({
    language: record.language,
    solution: record.canonicalSolution,
    demoTestFunc: record.demoTestFunc,
    fullTestFunc: record.fullTestFunc,
    settings,
  });
  const flakiness =
    verdict.kind === "ran" && record.repeat >= 2 ? await checkFlakiness({ ...record, settings }) : undefined;
  await storeVerification({ batchId, recordId, verdict, flakiness });
}

/** The flaky option's repeated runs of a record that ran; a sandbox that cannot run it again gives no verdict. */
async function checkFlakiness(record: {
  language: string;
  canonicalSolution: string;
  demoTestFunc: string;
  fullTestFunc: string;
  repeat: number;
  settings: RunSettings;
}): Promise<Flakiness> {
  try {
    const outcomes = await repeatTests(record, record.repeat);
    return { repeats: record.repeat, outcomes, flaky: flakyVerdict(outcomes) };
  } catch (error) {
    if (!(error instanceof SandboxError)) console.error(error);
    return { repeats: record.repeat, outcomes: [], flaky: null };
  }
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
  flakiness,
}: VerifyJob & { verdict: Verdict; flakiness?: Flakiness }): Promise<void> {
  const actor = SYSTEM_ACTOR.worker;
  try {
    await writeVerification({ actor, batchId, recordId, verdict, flakiness });
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

/** The queues this process's workers drain, each job held under the worker's heartbeat. */
const HELD_QUEUES = [
  VERIFY_QUEUE,
  EVIDENCE_QUEUE,
  DRAW_ITEMS_QUEUE,
  RELEASE_QUEUE,
  EXTEND_CAMPAIGN_QUEUE,
  DELETE_CAMPAIGN_QUEUE,
];

/**
 * Starts `concurrency` workers draining the verification queue in this process; returns their ids.
 * The process beats as a worker (lib/server/workers/workers.ts) and records the jobs it holds, so a
 * killed worker's jobs are retried as soon as its beats stop, not when they expire. The same
 * process collects evidence, draws large campaigns' items, builds large releases, and adds records
 * to and removes large campaigns (their own queues).
 */
export async function startVerificationWorkers(
  concurrency = config().workers.verificationConcurrency,
): Promise<string[]> {
  // Before the heartbeat: a queue that cannot be reached stops the start before the process registers as a worker.
  await verifyQueue.ensure();
  const boss = await getBoss();
  const worker = await startHeartbeat({
    backend: describeBackends(getSandboxRouter().config),
    concurrency,
    queues: HELD_QUEUES,
    // A dead worker's jobs are in any of the queues; failing an id in another one does nothing.
    retry: async (jobIds) => {
      for (const queue of HELD_QUEUES) await boss.fail(queue, jobIds);
    },
  });
  const ids = await workQueue<QueueJob>({
    queue: verifyQueue,
    workerId: worker.id,
    concurrency,
    run: (job) => ("solutionId" in job ? runSolution(job) : verifyRecord(job)),
    // The database away for a while: the job waits for it and runs again (a rerun stores no
    // duplicate result), rather than failing and waiting out its expiry.
    maxOutageWaitMs: OUTAGE_WAIT_MS,
  });
  // The same processes collect evidence (mutants, repeated runs) through their own queue.
  await startEvidenceWorkers({ workerId: worker.id, concurrency });
  // And they draw large campaigns' items, build large releases, add records to and remove large
  // campaigns, one job of each kind at a time (each is one long statement or transaction).
  await startItemDrawWorkers({ workerId: worker.id, concurrency: 1 });
  await startReleaseWorkers({ workerId: worker.id, concurrency: 1 });
  await startExtensionWorkers({ workerId: worker.id, concurrency: 1 });
  await startCampaignRemovalWorkers({ workerId: worker.id, concurrency: 1 });
  return ids;
}

/** Stops this process's workers: active jobs finish (up to `timeoutMs`), then the worker is removed. */
export async function stopVerificationWorkers(timeoutMs?: number): Promise<void> {
  await stopBoss(timeoutMs);
  await stopHeartbeat();
}
