import { type Column, DataTable } from "@/components/ui/data-table";
import { Badge } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";

import { QUEUE_LABELS, type QueueKey, type QueueQuery, queueSearch } from "./queue-query";
import { FinalLabelBadge, QueueItemCell } from "./queue-row-parts";

type QueueVote = { annotator: string; valid: boolean; categories: string[] };
export type QueueRow = {
  itemId: string;
  recordId: number;
  title: string;
  unreadComments: number;
  language: string;
  position: number;
  reasons: Partial<Record<QueueKey, string>>;
  final: { valid: boolean | null };
  votes: QueueVote[];
};

const QUEUE_TONES = { annotators: "red", critic: "amber", execution: "indigo", flagged: "gray" } as const;

const COLUMNS: Column[] = [
  { label: "Problem" },
  { label: "Language" },
  { label: "Why" },
  { label: "Labels" },
  { label: "Current final label" },
];

/** The items needing a reviewer, in priority order (most reasons first), each linking to its adjudication view. */
export function QueueList({ campaignId, query, items }: { campaignId: string; query: QueueQuery; items: QueueRow[] }) {
  if (items.length === 0) return <p className="text-sm text-slate-600">Nothing to review here.</p>;
  const search = queueSearch(query);
  return (
    <DataTable label="Items to review" boxed columns={COLUMNS}>
      {items.map((item) => (
        <tr key={item.itemId}>
          <QueueItemCell
            href={`/campaigns/${campaignId}/review/${item.itemId}${search}`}
            title={item.title}
            recordId={item.recordId}
            position={item.position}
          >
            {item.unreadComments > 0 ? (
              <span className="ml-2">
                <Badge tone="amber">
                  {item.unreadComments === 1 ? "1 new comment" : `${item.unreadComments} new comments`}
                </Badge>
              </span>
            ) : null}
          </QueueItemCell>
          <td className="px-3 py-2 text-slate-700">{languageName(item.language)}</td>
          <td className="px-3 py-2">
            <ul className="flex flex-wrap gap-1.5" aria-label="Reasons">
              {(Object.entries(item.reasons) as [QueueKey, string][]).map(([queue, reason]) => (
                <li key={queue}>
                  <Badge tone={QUEUE_TONES[queue]} title={reason}>
                    {QUEUE_LABELS[queue]}
                  </Badge>
                  <span className="ml-1 text-xs text-slate-500">{reason}</span>
                </li>
              ))}
            </ul>
          </td>
          <td className="px-3 py-2">
            <VoteList votes={item.votes} />
          </td>
          <td className="px-3 py-2">
            <FinalLabelBadge valid={item.final.valid} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** Who labelled the item and how: "ana@…: invalid (precision)". */
function VoteList({ votes }: { votes: QueueVote[] }) {
  return (
    <ul className="space-y-0.5 text-xs" aria-label="Votes">
      {votes.map((vote, index) => (
        <li key={index}>
          <span className="text-slate-700">{vote.annotator}</span>:{" "}
          {vote.valid ? <span className="text-green-700">valid</span> : <span className="text-red-700">invalid</span>}
          {vote.categories.length > 0 && <span className="text-slate-500"> ({vote.categories.join(", ")})</span>}
        </li>
      ))}
    </ul>
  );
}
