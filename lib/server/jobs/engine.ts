import "server-only";

import { type Actor, type SystemActor } from "@/lib/server/auth/permissions";
import { databaseFailure } from "@/lib/server/db/failures";
import { retryWhileDatabaseAway } from "@/lib/server/db/outage";
import { getBoss } from "@/lib/server/workers/boss";
import { holdJob, releaseJob } from "@/lib/server/workers/heartbeats";
import { jobPriority } from "@/lib/server/workers/priority";

// The job engine: the pg-boss plumbing every kind of long work shares, so a kind says only what is
// its own (which items, what one job runs, how a result is counted: docs/architecture.md, "The job
// engine"). A queue is defined once (defineJobQueue), a batch's items are queued a page at a time
// (queueItems), and workers drain a queue holding each job under their heartbeat (workQueue). No
// permission checks here: the kinds' operations check before they queue, and workers act as the
// system.

/** A job queue as its kind defines it; `ensure` creates it, or brings its options up to date. */
type JobQueue = { name: string; ensure: () => Promise<void> };

/**
 * A queue and its options. The expiry is read each time the queue is ensured: it follows the
 * configuration (verificationJobExpirySeconds), which a process settles after it starts.
 */
export function defineJobQueue({
  name,
  policy,
  retryLimit,
  retryDelay,
  expireInSeconds,
}: {
  name: string;
  /** pg-boss's "stately" keeps one job queued beside an active one (critic runs, keyed by run). */
  policy?: "stately";
  retryLimit: number;
  retryDelay: number;
  expireInSeconds: () => number;
}): JobQueue {
  return {
    name,
    ensure: () =>
      ensureJobQueue({
        name,
        retryLimit,
        retryDelay,
        expireInSeconds: expireInSeconds(),
        ...(policy ? { policy } : {}),
      }),
  };
}

/**
 * Creates a queue, or brings an existing one's job expiry up to date: a queue made by an older
 * version keeps its expiry until told otherwise (docs/deploy.md, "Workers").
 */
async function ensureJobQueue(options: {
  name: string;
  policy?: "stately";
  retryLimit: number;
  retryDelay: number;
  expireInSeconds: number;
}): Promise<void> {
  const boss = await getBoss();
  const queue = await boss.getQueue(options.name);
  if (!queue) await boss.createQueue(options.name, options);
  else if (queue.expireInSeconds !== options.expireInSeconds) await boss.updateQueue(options.name, options);
}

/**
 * Queues one job for work that is one job (a campaign's item draw, a release's build), at the
 * priority of whoever started it (lib/server/workers/priority.ts).
 */
async function queueJob<Data extends object>({
  queue,
  data,
  priority,
}: {
  queue: JobQueue;
  data: Data;
  priority: number;
}): Promise<void> {
  await queue.ensure();
  const boss = await getBoss();
  await boss.send(queue.name, data, { priority });
}

/** How many of a batch's items one insert queues: a page of ids read, a page of jobs written. */
const QUEUE_PAGE_SIZE = 1000;

/** One item's job: its data, and an expiry of its own where it may last longer than the queue's. */
type ItemJob<Data extends object> = { data: Data; expireInSeconds?: number };

/**
 * Queues a job per item, a page at a time, at the priority of whoever started the batch (so a
 * person's batch goes ahead of Verity's own: lib/server/workers/priority.ts). `pages` reads the
 * items still to queue in pages of the size it is given.
 */
export async function queueItems<Item, Data extends object>({
  queue,
  pages,
  toJob,
  priority,
}: {
  queue: JobQueue;
  pages: (pageSize: number) => AsyncIterable<readonly Item[]>;
  toJob: (item: Item) => ItemJob<Data>;
  priority: number;
}): Promise<void> {
  await queue.ensure();
  const boss = await getBoss();
  for await (const items of pages(QUEUE_PAGE_SIZE)) {
    await boss.insert(items.map((item) => ({ name: queue.name, priority, ...toJob(item) })));
  }
}

/**
 * Starts `concurrency` workers draining `queue` in this process, one job at a time each; returns
 * their ids. Each job is held under `workerId` while it runs (lib/server/workers/heartbeats.ts), so
 * a killed worker's job is retried as soon as its heartbeat stops, not when the job expires. With
 * `maxOutageWaitMs`, a job whose database went away waits for it (up to that long) and runs again,
 * rather than failing and waiting out its expiry: `run` must be safe to repeat.
 */
export async function workQueue<Data extends object>({
  queue,
  workerId,
  concurrency,
  run,
  maxOutageWaitMs,
}: {
  queue: JobQueue;
  workerId: string;
  concurrency: number;
  run: (data: Data) => Promise<void>;
  maxOutageWaitMs?: number;
}): Promise<string[]> {
  await queue.ensure();
  const boss = await getBoss();
  const ids: string[] = [];
  for (let index = 0; index < concurrency; index++) {
    let id: string | null = null;
    id = await boss.work<Data>(queue.name, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      const runHeld = async () => {
        await holdJob({ workerId, jobId: job.id });
        try {
          await run(job.data);
        } finally {
          await releaseJob(job.id);
        }
      };
      if (maxOutageWaitMs === undefined) await runHeld();
      else await retryWhileDatabaseAway(runHeld, { maxWaitMs: maxOutageWaitMs });
      // pg-boss waits out the rest of the polling interval after a job shorter than it; a worker that
      // just finished one asks for the next at once (an empty queue still polls at the interval).
      if (id) boss.notifyWorker(id);
    });
    ids.push(id);
  }
  return ids;
}

/** Every job of this kind may run this long (the largest at 100,000 records on a loaded machine takes under a minute). */
const ONE_JOB_EXPIRY_SECONDS = 30 * 60;

/** A kind of work that is one job per request, as defineOneJobKind returns it. */
type OneJobKind<Data extends object> = {
  /** Queues the work at the priority of whoever started it; when the queue cannot be reached, records the failure and throws. */
  queue: (startedBy: Actor | SystemActor, data: Data) => Promise<void>;
  /** Runs the work here, recording a failure a retry would repeat (the database away throws). */
  run: (data: Data) => Promise<void>;
  /** Starts `concurrency` workers running the kind's jobs in this process; returns their ids. */
  startWorkers: (options: { workerId: string; concurrency: number }) => Promise<string[]>;
};

/**
 * A kind of long work that is one job per request — a campaign's item draw, extension or removal, a
 * release's build: the request records the work (a row that says RUNNING or BUILDING) and queues
 * it, and a worker does it, held under the worker's id so a dead worker's job is retried. `work`
 * must be safe to repeat (a retried job finds the work done and writes nothing twice). A failure a
 * retry would repeat is recorded through `fail` with a reason people read (the kind's row shows
 * it); the database away throws, and the job is retried.
 */
export function defineOneJobKind<Data extends object>({
  queueName,
  work,
  fail,
  describe,
  reasons,
}: {
  queueName: string;
  work: (data: Data) => Promise<unknown>;
  fail: (data: Data, reason: string) => Promise<void>;
  /** The work in the server's log, e.g. `campaign c1: drawing its items`. */
  describe: (data: Data) => string;
  /** What people read when the job could not be queued (what to do) and when it stopped (what stopped). */
  reasons: { notQueued: string; stopped: string };
}): OneJobKind<Data> {
  const queue = defineJobQueue({
    name: queueName,
    retryLimit: 3,
    retryDelay: 5,
    expireInSeconds: () => ONE_JOB_EXPIRY_SECONDS,
  });
  const run = async (data: Data) => {
    try {
      await work(data);
    } catch (error) {
      if (databaseFailure(error)?.code === "UNAVAILABLE") throw error;
      console.error(`${describe(data)} stopped on an unexpected error`, error);
      await fail(data, reasons.stopped);
    }
  };
  return {
    queue: async (startedBy, data) => {
      try {
        await queueJob({ queue, data, priority: jobPriority(startedBy) });
      } catch (error) {
        await fail(data, reasons.notQueued);
        throw error;
      }
    },
    run,
    startWorkers: ({ workerId, concurrency }) => workQueue<Data>({ queue, workerId, concurrency, run }),
  };
}
