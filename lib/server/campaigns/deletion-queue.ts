import "server-only";

import { type Actor } from "@/lib/server/auth/permissions";
import { failCampaignRemoval, removeCampaign } from "@/lib/server/campaigns/remove-campaign";
import { databaseFailure } from "@/lib/server/db/failures";
import { defineJobQueue, queueJob, workQueue } from "@/lib/server/jobs/engine";
import { jobPriority } from "@/lib/server/workers/priority";
import { DELETE_CAMPAIGN_QUEUE } from "@/lib/server/workers/queue-names";

// Removing a large campaign on the job queue (issue 36: nothing that can take more than a second at
// 100,000 records runs inside a request). One job per campaign; the workers that drain verification
// (lib/server/verification/jobs.ts) drain this queue too.

type RemovalJob = { campaignId: string };

/** Long enough for the largest campaign (several seconds at 100,000 items on a loaded machine), with room. */
const REMOVAL_JOB_EXPIRY_SECONDS = 30 * 60;

const removalQueue = defineJobQueue({
  name: DELETE_CAMPAIGN_QUEUE,
  retryLimit: 3,
  retryDelay: 5,
  expireInSeconds: () => REMOVAL_JOB_EXPIRY_SECONDS,
});

/**
 * Queues the removal of a campaign marked DELETING, at the priority of whoever deleted it. When the
 * queue cannot be reached the deletion is marked FAILED with the reason and the error is thrown.
 * Called by deleteCampaign after its checks.
 */
export async function queueCampaignRemoval({ startedBy, campaignId }: { startedBy: Actor; campaignId: string }) {
  try {
    await queueJob<RemovalJob>({ queue: removalQueue, data: { campaignId }, priority: jobPriority(startedBy) });
  } catch (error) {
    await failCampaignRemoval({ campaignId, reason: "its job could not be queued: delete the campaign again" });
    throw error;
  }
}

/**
 * Starts `concurrency` workers removing campaigns in this process, held under the worker's id (so
 * a dead worker's removal is retried: removeCampaign deletes once). A failure a retry would repeat
 * ends the deletion as FAILED; the database away throws, and the job is retried.
 */
export async function startCampaignRemovalWorkers({
  workerId,
  concurrency,
}: {
  workerId: string;
  concurrency: number;
}): Promise<string[]> {
  return workQueue<RemovalJob>({
    queue: removalQueue,
    workerId,
    concurrency,
    run: async (job) => {
      try {
        await removeCampaign(job);
      } catch (error) {
        if (databaseFailure(error)?.code === "UNAVAILABLE") throw error;
        console.error(`campaign ${job.campaignId}: it could not be removed`, error);
        await failCampaignRemoval({
          campaignId: job.campaignId,
          reason: "removing it stopped on an unexpected error (see the worker's log)",
        });
      }
    },
  });
}
