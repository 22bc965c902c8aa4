import "server-only";

import { retryWhileDatabaseAway } from "@/lib/server/db/outage";
import { getBoss } from "@/lib/server/workers/boss";
import { holdJob, releaseJob } from "@/lib/server/workers/heartbeats";

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
export async function queueJob<Data extends object>({
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
