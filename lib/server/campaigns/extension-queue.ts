import "server-only";

import { addExtensionItems, failExtension } from "@/lib/server/campaigns/extension-items";
import { type Actor, type SystemActor } from "@/lib/server/auth/permissions";
import { defineOneJobKind } from "@/lib/server/jobs/engine";
import { EXTEND_CAMPAIGN_QUEUE } from "@/lib/server/workers/queue-names";

// Adding records to a large campaign on the job queue (issue 36: nothing that can take more than a
// second at 100,000 records runs inside a request). One job per extension; the workers that drain
// verification (lib/server/verification/jobs.ts) drain this queue too.

const extension = defineOneJobKind<{ extensionId: string }>({
  queueName: EXTEND_CAMPAIGN_QUEUE,
  // Inserts nothing twice: a retried extension finds its items added.
  work: addExtensionItems,
  fail: ({ extensionId }, reason) => failExtension({ extensionId, reason }),
  describe: ({ extensionId }) => `campaign extension ${extensionId}: adding its records`,
  reasons: {
    notQueued: "its job could not be queued: add the records again",
    stopped: "adding its records stopped on an unexpected error (see the worker's log)",
  },
});

/** Queues a RUNNING extension (extendCampaign, after its checks). */
export async function queueExtension(startedBy: Actor | SystemActor, data: { extensionId: string }): Promise<void> {
  await extension.queue(startedBy, data);
}

/** Starts workers adding campaigns' records in this process. */
export async function startExtensionWorkers(options: { workerId: string; concurrency: number }): Promise<string[]> {
  return extension.startWorkers(options);
}
