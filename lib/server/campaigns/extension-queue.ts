import "server-only";

import { type Actor } from "@/lib/server/auth/permissions";
import { addExtensionItems, failExtension } from "@/lib/server/campaigns/extension-items";
import { databaseFailure } from "@/lib/server/db/failures";
import { defineJobQueue, queueJob, workQueue } from "@/lib/server/jobs/engine";
import { jobPriority } from "@/lib/server/workers/priority";
import { EXTEND_CAMPAIGN_QUEUE } from "@/lib/server/workers/queue-names";

// Adding records to a large campaign on the job queue (issue 36: nothing that can take more than a
// second at 100,000 records runs inside a request). One job per extension; the workers that drain
// verification (lib/server/verification/jobs.ts) drain this queue too.

type ExtensionJob = { extensionId: string };

/** Long enough for the largest extension (half a minute at 100,000 records on a loaded machine), with room. */
const EXTENSION_JOB_EXPIRY_SECONDS = 30 * 60;

const extensionQueue = defineJobQueue({
  name: EXTEND_CAMPAIGN_QUEUE,
  retryLimit: 3,
  retryDelay: 5,
  expireInSeconds: () => EXTENSION_JOB_EXPIRY_SECONDS,
});

/**
 * Queues a RUNNING extension, at the priority of whoever asked for it. When the queue cannot be
 * reached the extension is marked FAILED with the reason and the error is thrown. Called by
 * extendCampaign after its checks.
 */
export async function queueExtension({ startedBy, extensionId }: { startedBy: Actor; extensionId: string }) {
  try {
    await queueJob<ExtensionJob>({ queue: extensionQueue, data: { extensionId }, priority: jobPriority(startedBy) });
  } catch (error) {
    await failExtension({ extensionId, reason: "its job could not be queued: add the records again" });
    throw error;
  }
}

/**
 * Starts `concurrency` workers adding campaigns' records in this process, held under the worker's
 * id (so a dead worker's extension is retried: addExtensionItems inserts nothing twice). A failure a
 * retry would repeat ends the extension as FAILED; the database away throws, and the job is retried.
 */
export async function startExtensionWorkers({
  workerId,
  concurrency,
}: {
  workerId: string;
  concurrency: number;
}): Promise<string[]> {
  return workQueue<ExtensionJob>({
    queue: extensionQueue,
    workerId,
    concurrency,
    run: async (job) => {
      try {
        await addExtensionItems(job);
      } catch (error) {
        if (databaseFailure(error)?.code === "UNAVAILABLE") throw error;
        console.error(`campaign extension ${job.extensionId}: its records could not be added`, error);
        await failExtension({
          extensionId: job.extensionId,
          reason: "adding its records stopped on an unexpected error (see the worker's log)",
        });
      }
    },
  });
}
