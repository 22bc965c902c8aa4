import "server-only";

import { drawCampaignItems, failItemDraw } from "@/lib/server/campaigns/draw-items";
import { type Actor, type SystemActor } from "@/lib/server/auth/permissions";
import { defineOneJobKind } from "@/lib/server/jobs/engine";
import { DRAW_ITEMS_QUEUE } from "@/lib/server/workers/queue-names";

// Drawing a large campaign's items on the job queue (issue 36: nothing that can take more than a
// second at 100,000 records runs inside a request). One job per campaign; the workers that drain
// verification (lib/server/verification/jobs.ts) drain this queue too.

const itemDraw = defineOneJobKind<{ campaignId: string }>({
  queueName: DRAW_ITEMS_QUEUE,
  // Inserts nothing twice: the draw row is locked first and a second delivery finds it SUCCEEDED.
  work: drawCampaignItems,
  fail: ({ campaignId }, reason) => failItemDraw({ campaignId, reason }),
  describe: ({ campaignId }) => `campaign ${campaignId}: drawing its items`,
  reasons: {
    notQueued: "its job could not be queued: delete the campaign and create it again",
    stopped: "drawing its items stopped on an unexpected error (see the worker's log)",
  },
});

/** Queues the drawing of a campaign's items (createCampaign, after its checks). */
export async function queueItemDraw(startedBy: Actor | SystemActor, data: { campaignId: string }): Promise<void> {
  await itemDraw.queue(startedBy, data);
}

/** Starts workers drawing campaigns' items in this process. */
export async function startItemDrawWorkers(options: { workerId: string; concurrency: number }): Promise<string[]> {
  return itemDraw.startWorkers(options);
}
