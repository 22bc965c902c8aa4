// The job queues' names, apart from the code that fills and drains them (which drives the sandbox),
// so the batches' data functions can say where a batch stands in its queue (queue-position.ts).

/** Batch verification and solver runs (lib/server/verification/queue.ts). */
export const VERIFY_QUEUE = "verify-record";

/** Mutation analysis and flaky checks (lib/server/evidence/jobs.ts). */
export const EVIDENCE_QUEUE = "evidence-record";

/** Drawing a large campaign's items (lib/server/campaigns/draw-queue.ts). */
export const DRAW_ITEMS_QUEUE = "campaign-draw-items";

/** Building a release's entries (lib/server/releases/release-queue.ts). */
export const RELEASE_QUEUE = "release-build";

/** Adding records to a campaign (lib/server/campaigns/extension-queue.ts). */
export const EXTEND_CAMPAIGN_QUEUE = "campaign-extend";

/** Removing a campaign marked for deletion (lib/server/campaigns/deletion-queue.ts). */
export const DELETE_CAMPAIGN_QUEUE = "campaign-delete";
