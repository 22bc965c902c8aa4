// The verification queue's name, apart from the queue's code (queue.ts drives the sandbox), so the
// batches' data functions can say where a batch stands in it.
export const VERIFY_QUEUE = "verify-record";
