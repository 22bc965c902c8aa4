import "server-only";

import { config } from "@/lib/server/config";
import { assertCan } from "@/lib/server/auth/guard";
import { databaseFailure } from "@/lib/server/db/failures";
import { retryWhileDatabaseAway } from "@/lib/server/db/outage";
import { changeCriticRunStatus, type ChangeCriticRunStatusParams } from "./change-critic-run-status";
import { type CriticRunStart, openCriticRun, type OpenCriticRunParams } from "./open-critic-run";
import { type CriticRunStatus, finishCriticRun } from "./queries";
import { defineJobQueue } from "@/lib/server/jobs/engine";
import { getBoss } from "@/lib/server/workers/boss";

import { CRITIC_STRETCH_MS, processCriticRun, STRETCH_GRACE_MS } from "./run";

// Critic runs as queued jobs: one job works on a run for a couple of minutes and queues its own
// continuation, so a run of 100,000 records never holds one job for hours, and a worker that dies
// loses one stretch: pg-boss hands the job out again when it expires, and the run resumes from the
// records it has no verdict for. One job per run at a time (the queue's "stately" policy, keyed by run).

const CRITIC_QUEUE = "critic-run";
// A stretch asks for CRITIC_STRETCH_MS and drops what is still in flight STRETCH_GRACE_MS later;
// past that, plus a minute for the last writes, a job is taken for dead and handed out again.
const JOB_EXPIRY_SECONDS = Math.ceil((CRITIC_STRETCH_MS + STRETCH_GRACE_MS) / 1000) + 60;

// How long a stretch waits for a database that went away before it gives the job back: within its
// expiry, whatever remains after the stretch's own budget and grace.
const OUTAGE_WAIT_MS = 50_000;

type CriticJob = { runId: string };

const criticQueue = defineJobQueue({
  name: CRITIC_QUEUE,
  policy: "stately",
  retryLimit: 20,
  retryDelay: 5,
  expireInSeconds: () => JOB_EXPIRY_SECONDS,
});

async function queueRun(runId: string): Promise<void> {
  await criticQueue.ensure();
  await (await getBoss()).send(CRITIC_QUEUE, { runId } satisfies CriticJob, { singletonKey: runId });
}

/**
 * Starts (or resumes) a run of a critic's newest version over a dataset, one language of it, or a
 * campaign's sample, and queues it for the critic workers. Scope: critics:admin.
 */
export async function startCriticRun(args: OpenCriticRunParams): Promise<CriticRunStart> {
  assertCan(args.actor, "critics:admin");
  const run = await openCriticRun(args);
  if (run.total > 0) await queueRun(run.runId);
  return run;
}

/** Pauses, resumes (queued again) or cancels a run. Scope: critics:admin. */
export async function controlCriticRun({
  actor,
  runId,
  action,
}: ChangeCriticRunStatusParams): Promise<CriticRunStatus> {
  assertCan(actor, "critics:admin");
  const status = await changeCriticRunStatus({ actor, runId, action });
  if (status === "RUNNING") await queueRun(runId);
  return status;
}

const globalForCritics = globalThis as unknown as { verityCriticWorkers?: string[] };

/**
 * Starts `count` workers draining the critic queue in this process (each works on one run at a
 * time, with that critic's own concurrency). Stopping the job queue (stopBoss) stops them.
 */
export async function startCriticWorkers(count = config().workers.criticRuns): Promise<string[]> {
  if (globalForCritics.verityCriticWorkers) return globalForCritics.verityCriticWorkers;
  await criticQueue.ensure();
  const boss = await getBoss();
  // Not the job engine's workQueue: a critic job is a stretch of a run that queues its own
  // continuation, and no worker's heartbeat holds it (`verity critic` starts these workers without
  // one); a lost stretch comes back when its short expiry passes.
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const id = await boss.work<CriticJob>(
      CRITIC_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: 0.5 },
      async ([job]) => {
        let outcome;
        try {
          // The database away for a while: the run waits for it and resumes where it was.
          outcome = await retryWhileDatabaseAway(() => processCriticRun({ runId: job.data.runId }), {
            maxWaitMs: OUTAGE_WAIT_MS,
          });
        } catch (error) {
          // The database away: the job is retried once it is back. Anything else would fail the
          // same way on every retry (and pay for the requests again): the run ends with the reason.
          if (databaseFailure(error)?.code === "UNAVAILABLE") throw error;
          console.error(`critic run ${job.data.runId} failed`, error);
          await finishCriticRun({
            runId: job.data.runId,
            stopReason: "the run stopped on an unexpected error (see the worker's log); resume it to try again",
          });
          return;
        }
        // The continuation is queued while this job is still active: the policy allows one queued beside it.
        if (outcome === "continue") await queueRun(job.data.runId);
      },
    );
    ids.push(id);
  }
  globalForCritics.verityCriticWorkers = ids;
  return ids;
}

/** Forgets this process's critic workers once the job queue has stopped (stopBoss). */
export function forgetCriticWorkers(): void {
  globalForCritics.verityCriticWorkers = undefined;
}
