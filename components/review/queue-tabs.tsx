import Link from "next/link";

import { QUEUE_KEYS, QUEUE_LABELS, type QueueKey, type QueueQuery, queueSearch } from "./queue-query";

/** The four review queues as tabs with their counts (under the current filters), plus "All". */
export function QueueTabs({
  campaignId,
  query,
  counts,
}: {
  campaignId: string;
  query: QueueQuery;
  counts: Record<QueueKey, number>;
}) {
  const tabs: { key: QueueKey | undefined; label: string; count?: number }[] = [
    { key: undefined, label: "All" },
    ...QUEUE_KEYS.map((key) => ({ key, label: QUEUE_LABELS[key], count: counts[key] })),
  ];
  return (
    <nav aria-label="Review queues" className="mb-4 border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-1 text-sm">
        {tabs.map((tab) => {
          const isCurrent = !query.look && query.queue === tab.key;
          return (
            <li key={tab.label}>
              <Link
                href={`/campaigns/${campaignId}/review${queueSearch({ ...query, look: undefined, queue: tab.key })}`}
                aria-current={isCurrent ? "page" : undefined}
                className={`inline-flex items-center gap-2 border-b-2 px-3 py-2 ${isCurrent ? "border-indigo-600 font-medium text-indigo-700" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-800"}`}
              >
                {tab.label}
                {tab.count === undefined ? null : (
                  <span
                    className="rounded-full bg-slate-100 px-2 text-xs tabular-nums text-slate-700"
                    data-testid={`queue-count-${tab.key}`}
                  >
                    {tab.count}
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
