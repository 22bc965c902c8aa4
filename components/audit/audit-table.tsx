import Link from "next/link";

import { type Column, DataTable } from "@/components/ui/data-table";

export type AuditRow = {
  id: string;
  actorLabel: string;
  action: string;
  targetType: string;
  targetId: string | null;
  targetLabel: string;
  campaignId: string | null;
  campaignName: string | null;
  before: unknown;
  after: unknown;
  createdAt: Date;
};

/** One JSON value: compact on one line, the indented whole on expanding. */
function JsonValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-slate-300">—</span>;
  const compact = JSON.stringify(value);
  if (compact.length <= 60) return <code className="font-mono text-xs text-slate-700">{compact}</code>;
  return (
    <details>
      <summary className="cursor-pointer font-mono text-xs text-slate-700">{compact.slice(0, 60)}…</summary>
      <pre className="mt-1 max-h-72 max-w-md overflow-auto rounded bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap ring-1 ring-slate-200">
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}

const COLUMNS: Column[] = [
  { label: "Time (UTC)" },
  { label: "Actor" },
  { label: "Action" },
  { label: "Target" },
  { label: "Campaign" },
  { label: "Before" },
  { label: "After" },
];

/** Audit events, newest first: when, who, what, on which target, and the values before and after. */
export function AuditTable({ events }: { events: AuditRow[] }) {
  if (events.length === 0) return <p className="text-sm text-slate-600">No events match.</p>;
  return (
    <DataTable label="Audit events" boxed columns={COLUMNS} bodyClassName="align-top">
      {events.map((event) => (
        <tr key={event.id}>
          <td className="px-3 py-2 whitespace-nowrap tabular-nums text-slate-600">
            <time dateTime={event.createdAt.toISOString()}>
              {event.createdAt.toISOString().slice(0, 19).replace("T", " ")}
            </time>
          </td>
          <td className="px-3 py-2 text-slate-700">{event.actorLabel}</td>
          <td className="px-3 py-2 font-mono text-xs">{event.action}</td>
          <td
            className="px-3 py-2 text-slate-700"
            title={event.targetId ? `${event.targetType} ${event.targetId}` : event.targetType}
          >
            {event.targetLabel}
          </td>
          <td className="px-3 py-2 text-slate-700">
            {event.campaignId && event.campaignName ? (
              <Link href={`/campaigns/${event.campaignId}`} className="text-indigo-700 hover:underline">
                {event.campaignName}
              </Link>
            ) : (
              <span className="text-slate-300">—</span>
            )}
          </td>
          <td className="px-3 py-2">
            <JsonValue value={event.before} />
          </td>
          <td className="px-3 py-2">
            <JsonValue value={event.after} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
