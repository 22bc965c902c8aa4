import "server-only";

import { type Actor, type SystemActor } from "@/lib/server/auth/permissions";
import { defineOneJobKind } from "@/lib/server/jobs/engine";
import { buildRelease } from "@/lib/server/releases/build-release";
import { failReleaseBuild } from "@/lib/server/releases/queries";
import { RELEASE_QUEUE } from "@/lib/server/workers/queue-names";

// Building a large dataset's release on the job queue (issue 36: nothing that can take more than a
// second at 100,000 records runs inside a request). One job per release; the workers that drain
// verification (lib/server/verification/jobs.ts) drain this queue too.

const releaseBuild = defineOneJobKind<{ releaseId: string }>({
  queueName: RELEASE_QUEUE,
  // Stores nothing twice: a retried build finds the release READY.
  work: buildRelease,
  fail: ({ releaseId }, reason) => failReleaseBuild({ releaseId, reason }),
  describe: ({ releaseId }) => `release ${releaseId}: building it`,
  reasons: {
    notQueued: "its job could not be queued: cut it again under another name",
    stopped: "building it stopped on an unexpected error (see the server's log)",
  },
});

/** Queues the build of a BUILDING release (cutRelease, after its checks). */
export async function queueReleaseBuild(startedBy: Actor | SystemActor, data: { releaseId: string }): Promise<void> {
  await releaseBuild.queue(startedBy, data);
}

/**
 * Builds a release here, recording a failure a retry would repeat as its reason: the request that
 * cuts a small release and `verity release create` end here, as the workers do.
 */
export async function runReleaseBuild(data: { releaseId: string }): Promise<void> {
  await releaseBuild.run(data);
}

/** Starts workers building releases in this process. */
export async function startReleaseWorkers(options: { workerId: string; concurrency: number }): Promise<string[]> {
  return releaseBuild.startWorkers(options);
}
