import "server-only";

import { failCampaignRemoval, removeCampaign } from "@/lib/server/campaigns/remove-campaign";
import { type Actor, type SystemActor } from "@/lib/server/auth/permissions";
import { defineOneJobKind } from "@/lib/server/jobs/engine";
import { DELETE_CAMPAIGN_QUEUE } from "@/lib/server/workers/queue-names";

// Removing a large campaign on the job queue (issue 36: nothing that can take more than a second at
// 100,000 records runs inside a request). One job per campaign; the workers that drain verification
// (lib/server/verification/jobs.ts) drain this queue too.

const removal = defineOneJobKind<{ campaignId: string }>({
  queueName: DELETE_CAMPAIGN_QUEUE,
  // Deletes once: a retried removal finds the campaign gone.
  work: removeCampaign,
  fail: ({ campaignId }, reason) => failCampaignRemoval({ campaignId, reason }),
  describe: ({ campaignId }) => `campaign ${campaignId}: removing it`,
  reasons: {
    notQueued: "its job could not be queued: delete the campaign again",
    stopped: "removing it stopped on an unexpected error (see the worker's log)",
  },
});

/** Queues the removal of a campaign marked DELETING (deleteCampaign, after its checks). */
export async function queueCampaignRemoval(
  startedBy: Actor | SystemActor,
  data: { campaignId: string },
): Promise<void> {
  await removal.queue(startedBy, data);
}

/** Starts workers removing campaigns in this process. */
export async function startCampaignRemovalWorkers(options: {
  workerId: string;
  concurrency: number;
}): Promise<string[]> {
  return removal.startWorkers(options);
}
