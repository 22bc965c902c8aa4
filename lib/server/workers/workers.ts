import "server-only";

import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

import {
  beatWorker,
  findUnheldJobs,
  reapDeadWorkers,
  removeWorker,
  type WorkerIdentity,
} from "@/lib/server/workers/heartbeats";
import { countOf } from "@/lib/format/count";

// Every worker process writes a beat this often; one silent for three beats is dead (killed, its
// machine gone) and the jobs it held are handed back to the queue by the next live worker.
const HEARTBEAT_MS = 5_000;
export const DEAD_AFTER_MS = 3 * HEARTBEAT_MS;

type Heartbeat = { identity: WorkerIdentity; timer: NodeJS.Timeout; pending: Promise<void> };

/** The queues whose jobs a worker process holds, and how it hands jobs back to them. */
type HeldQueues = { queues: string[]; retry: (jobIds: string[]) => Promise<void> };

const globalForWorker = globalThis as unknown as { verityHeartbeat?: Heartbeat };

/** One beat: this worker is alive; dead workers are forgotten and their jobs given to `retry`. */
export async function beat(
  identity: WorkerIdentity,
  retry: (jobIds: string[]) => Promise<void>,
  deadAfterMs = DEAD_AFTER_MS,
): Promise<void> {
  await beatWorker(identity);
  const dead = await reapDeadWorkers(deadAfterMs);
  if (dead.workers.length === 0) return;
  console.error(
    `worker: ${countOf(dead.workers.length, "worker")} stopped beating; retrying the ${countOf(dead.jobIds.length, "job")} they held`,
  );
  if (dead.jobIds.length > 0) await retry(dead.jobIds);
}

/**
 * Jobs taken from `queues` but held by no worker, on this beat and the one before (findUnheldJobs):
 * their worker died before it recorded them. Handed to `retry`; returns this beat's finds, which the
 * next beat compares with.
 */
export async function retryUnheldJobs(
  { queues, retry }: HeldQueues,
  unheldBefore: ReadonlySet<string>,
): Promise<Set<string>> {
  const unheld = new Set(await findUnheldJobs(queues, HEARTBEAT_MS));
  const orphaned = [...unheld].filter((jobId) => unheldBefore.has(jobId));
  if (orphaned.length > 0) {
    console.error(
      `worker: ${countOf(orphaned.length, "job")} taken by a worker that stopped before holding them; retrying them`,
    );
    await retry(orphaned);
  }
  return new Set([...unheld].filter((jobId) => !orphaned.includes(jobId)));
}

/**
 * Registers this process as a worker and beats every HEARTBEAT_MS until stopHeartbeat. `retry`
 * hands jobs of dead workers back to `queues`, and jobs a worker took but died before holding.
 * Returns the worker's identity.
 */
export async function startHeartbeat({
  backend,
  concurrency,
  queues,
  retry,
}: {
  backend: string;
  concurrency: number;
} & HeldQueues): Promise<WorkerIdentity> {
  if (globalForWorker.verityHeartbeat) return globalForWorker.verityHeartbeat.identity;
  const identity: WorkerIdentity = { id: randomUUID(), host: hostname(), pid: process.pid, backend, concurrency };
  await beat(identity, retry);
  let unheld: ReadonlySet<string> = new Set();
  const heartbeat: Heartbeat = {
    identity,
    pending: Promise.resolve(),
    timer: setInterval(() => {
      heartbeat.pending = (async () => {
        await beat(identity, retry);
        unheld = await retryUnheldJobs({ queues, retry }, unheld);
      })().catch((error: unknown) => console.error("worker: the heartbeat could not be written:", error));
    }, HEARTBEAT_MS),
  };
  heartbeat.timer.unref();
  globalForWorker.verityHeartbeat = heartbeat;
  return identity;
}

/** Stops beating and removes this worker (call once its jobs have finished or were given up). */
export async function stopHeartbeat(): Promise<void> {
  const heartbeat = globalForWorker.verityHeartbeat;
  if (!heartbeat) return;
  globalForWorker.verityHeartbeat = undefined;
  clearInterval(heartbeat.timer);
  // A beat still being written would register the worker again after its removal.
  await heartbeat.pending;
  await removeWorker(heartbeat.identity.id);
}
