// Why an item sits in each review queue, in words. Which queues an item is in is decided in SQL,
// by `verity_review_reasons` (migration 20261201180700_final_labels_kept) and kept on the item; this only explains it.
import type { QueueName } from "./queues";

/** What a queue row knows about its item: label counts, the final verdict and the evidence beside it. */
export type QueueEvidence = {
  n: number;
  nValid: number;
  finalValid: boolean | null;
  criticPass: boolean | null;
  executableValid: boolean | null;
};

/** The reason for each queue in `queues`, as a reviewer reads it. Pure. */
export function queueReasons(item: QueueEvidence, queues: readonly QueueName[]): Partial<Record<QueueName, string>> {
  const reasons: Partial<Record<QueueName, string>> = {};
  for (const queue of queues) reasons[queue] = reasonOf(item, queue);
  return reasons;
}

function reasonOf(item: QueueEvidence, queue: QueueName): string {
  const human = item.finalValid ? "valid" : "invalid";
  switch (queue) {
    case "annotators":
      return `${item.nValid} valid vs ${item.n - item.nValid} invalid`;
    case "critic":
      return `humans say ${human}, the critic ${item.criticPass ? "passes" : "fails"} it`;
    case "execution":
      return item.finalValid
        ? "labelled valid, but the canonical solution fails its own tests"
        : "labelled invalid, but the tests pass and the critic passes it";
    case "flagged":
      return "an annotator asked for review";
  }
}
