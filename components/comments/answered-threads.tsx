import Link from "next/link";

import { recordTitle } from "@/components/campaigns/record-title";

/**
 * On the campaign page, the annotator's threads a reviewer or admin answered since they last read
 * them, each linking to its item (opening it marks the answer read). Renders nothing when there are none.
 */
export function AnsweredThreads({
  campaignId,
  threads,
}: {
  campaignId: string;
  threads: { itemId: string; question: string; answers: number }[];
}) {
  if (threads.length === 0) return null;
  return (
    <section
      aria-label="Answers to your comments"
      className="mb-4 rounded-lg bg-amber-50 p-3 text-sm ring-1 ring-amber-200"
    >
      <h2 className="font-semibold text-amber-950">
        A reviewer answered {threads.length === 1 ? "your comment" : `your comments on ${threads.length} items`}
      </h2>
      <ul className="mt-1 space-y-0.5">
        {threads.map((thread) => (
          <li key={thread.itemId}>
            <Link href={`/campaigns/${campaignId}/items/${thread.itemId}`} className="text-indigo-800 hover:underline">
              {recordTitle(thread.question)}
            </Link>{" "}
            <span className="text-amber-900">
              · {thread.answers} new {thread.answers === 1 ? "answer" : "answers"}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
