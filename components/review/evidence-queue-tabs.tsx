import Link from "next/link";

import { EVIDENCE_REASON_LABELS, EVIDENCE_REASONS, type EvidenceReason } from "@/lib/evidence/suspicion";

import { type QueueQuery, queueSearch } from "./queue-query";

/**
 * The four evidence queues as tabs with their counts (under the language filter): where the
 * automatic evidence says a reviewer should look, labelled or not.
 */
export function EvidenceQueueTabs({
  campaignId,
  query,
  counts,
}: {
  campaignId: string;
  query: QueueQuery;
  counts: Record<EvidenceReason, number>;
}) {
  return (
    <nav aria-label="Evidence queues" className="mb-4 border-b border-slate-200">
      <p className="mb-1 text-xs font-medium uppercase tracking-wide text-slate-500">Where the evidence points</p>
      <ul className="-mb-px flex flex-wrap gap-1 text-sm">
        {EVIDENCE_REASONS.map((reason) => {
          const isCurrent = query.look === reason;
          return (
            <li key={reason}>
              <Link
                href={`/campaigns/${campaignId}/review${queueSearch({ language: query.language, weakBelow: query.weakBelow, look: reason })}`}
                aria-current={isCurrent ? "page" : undefined}
                className={`inline-flex items-center gap-2 border-b-2 px-3 py-2 ${isCurrent ? "border-indigo-600 font-medium text-indigo-700" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-800"}`}
              >
                {EVIDENCE_REASON_LABELS[reason]}
                <span
                  className="rounded-full bg-slate-100 px-2 text-xs tabular-nums text-slate-700"
                  data-testid={`evidence-count-${reason}`}
                >
                  {counts[reason]}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
