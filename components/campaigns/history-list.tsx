import Link from "next/link";

import { Badge } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";

export type HistoryEntry = {
  id: string;
  itemId: string;
  valid: boolean;
  categories: string[];
  note: string | null;
  revision: number;
  updatedAt: Date;
  language: string;
  title: string;
};

function excerpt(text: string | null, length = 90): string {
  if (!text) return "";
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

/** The viewer's own labels in a campaign, newest first, each reopening its item for revision. */
export function HistoryList({
  campaignId,
  entries,
  categoryLabels,
}: {
  campaignId: string;
  entries: HistoryEntry[];
  categoryLabels: Record<string, string>;
}) {
  if (entries.length === 0) return <p className="text-sm text-slate-500">You have not labelled anything here yet.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm" aria-label="Your labels">
      {entries.map((entry) => (
        <li key={entry.id} className="flex flex-wrap items-start gap-x-3 gap-y-1 py-2">
          <span className="w-14 shrink-0">
            {entry.valid ? <Badge tone="green">valid</Badge> : <Badge tone="red">invalid</Badge>}
          </span>
          <div className="min-w-0 flex-1">
            <Link
              href={`/campaigns/${campaignId}/items/${entry.itemId}`}
              className="font-medium text-indigo-700 hover:underline"
            >
              {entry.title}
            </Link>
            <div className="mt-0.5 flex flex-wrap gap-1">
              <Badge tone="indigo">{languageName(entry.language)}</Badge>
              {entry.categories.map((key) => (
                <Badge key={key}>{categoryLabels[key] ?? key}</Badge>
              ))}
            </div>
            {entry.note ? <p className="mt-0.5 text-slate-600">{excerpt(entry.note)}</p> : null}
          </div>
          <span className="text-xs text-slate-500">
            rev {entry.revision} · {entry.updatedAt.toISOString().slice(0, 16).replace("T", " ")}
          </span>
        </li>
      ))}
    </ul>
  );
}
