// The job queues' names, apart from the code that fills and drains them (which drives the sandbox),
// so the batches' data functions can say where a batch stands in its queue (queue-position.ts).

/** Batch verification and solver runs (lib/server/verification/queue.ts). */
export const VERIFY_QUEUE = "verify-record";

/** Mutation analysis and flaky checks (lib/server/evidence/jobs.ts). */
export const EVIDENCE_QUEUE = "evidence-record";

/** Drawing a large campaign's items (lib/server/campaigns/draw-queue.ts). */
export const DRAW_ITEMS_QUEUE = "campaign-draw-items";
