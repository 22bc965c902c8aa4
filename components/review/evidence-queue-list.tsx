import { type Column, DataTable } from "@/components/ui/data-table";
import { languageName } from "@/lib/records/languages";

import { type QueueQuery, queueSearch } from "./queue-query";
import { FinalLabelBadge, QueueItemCell } from "./queue-row-parts";

export type EvidenceQueueRow = {
  itemId: string;
  recordId: number;
  title: string;
  language: string;
  position: number;
  labels: number;
  finalValid: boolean | null;
  why: string;
};

const COLUMNS: Column[] = [
  { label: "Problem" },
  { label: "Language" },
  { label: "Why" },
  { label: "Labels" },
  { label: "Current final label" },
];

/** An evidence queue's items in campaign order, each linking to its adjudication view (which walks the same queue). */
export function EvidenceQueueList({
  campaignId,
  query,
  items,
}: {
  campaignId: string;
  query: QueueQuery;
  items: EvidenceQueueRow[];
}) {
  if (items.length === 0) return <p className="text-sm text-slate-600">The evidence points at nothing here.</p>;
  const search = queueSearch({ ...query, cursor: undefined });
  return (
    <DataTable label="Items the evidence points at" boxed columns={COLUMNS}>
      {items.map((item) => (
        <tr key={item.itemId}>
          <QueueItemCell
            href={`/campaigns/${campaignId}/review/${item.itemId}${search}`}
            title={item.title}
            recordId={item.recordId}
            position={item.position}
          />
          <td className="px-3 py-2 text-slate-700">{languageName(item.language)}</td>
          <td className="px-3 py-2 text-slate-700">{item.why}</td>
          <td className="px-3 py-2 tabular-nums">{item.labels}</td>
          <td className="px-3 py-2">
            <FinalLabelBadge valid={item.finalValid} isLabelled={item.labels > 0} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
