import "server-only";

import { type Actor, type SystemActor } from "@/lib/server/auth/permissions";
import { databaseFailure } from "@/lib/server/db/failures";
import { defineJobQueue, queueJob, workQueue } from "@/lib/server/jobs/engine";
import { buildRelease } from "@/lib/server/releases/build-release";
import { failReleaseBuild } from "@/lib/server/releases/queries";
import { jobPriority } from "@/lib/server/workers/priority";
import { RELEASE_QUEUE } from "@/lib/server/workers/queue-names";

// Building a large dataset's release on the job queue (issue 36: nothing that can take more than a
// second at 100,000 records runs inside a request). One job per release; the workers that drain
// verification (lib/server/verification/jobs.ts) drain this queue too.

type ReleaseJob = { releaseId: string };

/** Long enough for the largest release (a quarter of a minute at 100,000 records on a loaded machine), with room. */
const RELEASE_JOB_EXPIRY_SECONDS = 30 * 60;

const releaseQueue = defineJobQueue({
  name: RELEASE_QUEUE,
  retryLimit: 3,
  retryDelay: 5,
  expireInSeconds: () => RELEASE_JOB_EXPIRY_SECONDS,
});

/**
 * Queues the build of a BUILDING release, at the priority of whoever cut it. When the queue cannot
 * be reached the release is marked FAILED with the reason and the error is thrown. Called by
 * cutRelease after its checks.
 */
export async function queueReleaseBuild({
  startedBy,
  releaseId,
}: {
  startedBy: Actor | SystemActor;
  releaseId: string;
}): Promise<void> {
  try {
    await queueJob<ReleaseJob>({ queue: releaseQueue, data: { releaseId }, priority: jobPriority(startedBy) });
  } catch (error) {
    await failReleaseBuild({ releaseId, reason: "its job could not be queued: cut it again under another name" });
    throw error;
  }
}

/**
 * Runs a release's build and records a failure a retry would repeat as the release's reason (the
 * database away throws: the job is retried, and the build stores nothing twice). The request that
 * builds a small release itself and the workers both end here.
 */
export async function runReleaseBuild({ releaseId }: { releaseId: string }): Promise<void> {
  try {
    await buildRelease({ releaseId });
  } catch (error) {
    if (databaseFailure(error)?.code === "UNAVAILABLE") throw error;
    console.error(`release ${releaseId}: it could not be built`, error);
    await failReleaseBuild({ releaseId, reason: "building it stopped on an unexpected error (see the server's log)" });
  }
}

/**
 * Starts `concurrency` workers building releases in this process, held under the worker's id (so a
 * dead worker's build is retried: buildRelease stores nothing twice).
 */
export async function startReleaseWorkers({
  workerId,
  concurrency,
}: {
  workerId: string;
  concurrency: number;
}): Promise<string[]> {
  return workQueue<ReleaseJob>({ queue: releaseQueue, workerId, concurrency, run: runReleaseBuild });
}
