import "server-only";

import { type Actor, type SystemActor } from "@/lib/server/auth/permissions";
import { drawCampaignItems, failItemDraw } from "@/lib/server/campaigns/draw-items";
import { databaseFailure } from "@/lib/server/db/failures";
import { defineJobQueue, queueJob, workQueue } from "@/lib/server/jobs/engine";
import { jobPriority } from "@/lib/server/workers/priority";
import { DRAW_ITEMS_QUEUE } from "@/lib/server/workers/queue-names";

// Drawing a large campaign's items on the job queue (issue 36: nothing that can take more than a
// second at 100,000 records runs inside a request). One job per campaign; the workers that drain
// verification (lib/server/verification/jobs.ts) drain this queue too.

type DrawJob = { campaignId: string };

/** Long enough for the largest sample (half a minute at 100,000 records on a loaded machine), with room. */
const DRAW_JOB_EXPIRY_SECONDS = 30 * 60;

const drawQueue = defineJobQueue({
  name: DRAW_ITEMS_QUEUE,
  retryLimit: 3,
  retryDelay: 5,
  expireInSeconds: () => DRAW_JOB_EXPIRY_SECONDS,
});

/**
 * Queues the drawing of a campaign's items, at the priority of whoever created it. When the queue
 * cannot be reached the draw is marked FAILED with the reason (the campaign says so; deleting and
 * creating it again retries) and the error is thrown. Called by createCampaign after its checks.
 */
export async function queueItemDraw({
  startedBy,
  campaignId,
}: {
  startedBy: Actor | SystemActor;
  campaignId: string;
}): Promise<void> {
  try {
    await queueJob<DrawJob>({ queue: drawQueue, data: { campaignId }, priority: jobPriority(startedBy) });
  } catch (error) {
    await failItemDraw({ campaignId, reason: "its job could not be queued: delete the campaign and create it again" });
    throw error;
  }
}

/**
 * Starts `concurrency` workers drawing campaigns' items in this process, held under the worker's
 * id (so a dead worker's draw is retried: drawCampaignItems inserts nothing twice). A failure a
 * retry would repeat ends the draw as FAILED; the database away throws, and the job is retried.
 */
export async function startItemDrawWorkers({
  workerId,
  concurrency,
}: {
  workerId: string;
  concurrency: number;
}): Promise<string[]> {
  return workQueue<DrawJob>({
    queue: drawQueue,
    workerId,
    concurrency,
    run: async (job) => {
      try {
        await drawCampaignItems(job);
      } catch (error) {
        if (databaseFailure(error)?.code === "UNAVAILABLE") throw error;
        console.error(`campaign ${job.campaignId}: its items could not be drawn`, error);
        await failItemDraw({
          campaignId: job.campaignId,
          reason: "drawing its items stopped on an unexpected error (see the worker's log)",
        });
      }
    },
  });
}
