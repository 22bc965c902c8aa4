import { countOf } from "@/lib/format/count";

/**
 * For a command following a batch on stderr: says how many jobs the queue hands out before the
 * batch's first one, each time that number changes, so "0 done" for minutes says why.
 */
export function reportQueuedAhead(): (queuedAhead: number) => void {
  let said = 0;
  return (queuedAhead) => {
    if (queuedAhead > 0 && queuedAhead !== said)
      console.error(`waiting: ${countOf(queuedAhead, "job")} ahead in the queue`);
    said = queuedAhead;
  };
}
