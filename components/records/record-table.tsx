import Link from "next/link";

import { ExecutableBadge } from "@/components/records/executable-badge";
import { InlineMarkdown } from "@/components/records/question-markdown";
import { Badge } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import type { RecordListItem } from "@/lib/records/types";

/** A page of the record browser: one row per record (its critic and execution as the viewer may see them), then the page links. */
export function RecordTable({
  items,
  firstPageHref,
  nextHref,
}: {
  items: RecordListItem[];
  /** The first page's link, on a later page; null on the first. */
  firstPageHref: string | null;
  /** The next page's link; null on the last. */
  nextHref: string | null;
}) {
  return (
    <>
      <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
        <table className="min-w-full text-sm">
          <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-3 py-2">Line</th>
              <th className="px-3 py-2">Language</th>
              <th className="px-3 py-2">Difficulty</th>
              <th className="px-3 py-2">Question</th>
              <th className="px-3 py-2">Critic</th>
              <th className="px-3 py-2">Executable</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {items.map((item) => (
              <tr key={item.id} className="hover:bg-indigo-50/40">
                <td className="px-3 py-2 tabular-nums text-slate-500">{item.line}</td>
                <td className="px-3 py-2">{languageName(item.language)}</td>
                <td className="px-3 py-2 text-slate-600">{item.difficulty ?? "—"}</td>
                <td className="max-w-xl truncate px-3 py-2">
                  <Link href={`/records/${item.id}`} className="text-indigo-700 hover:underline">
                    {item.title ? <InlineMarkdown source={item.title} /> : "(untitled)"}
                  </Link>
                </td>
                <td className="px-3 py-2">
                  {item.isCriticHidden ? (
                    <Badge>hidden</Badge>
                  ) : !item.hasCritic ? (
                    <Badge>none</Badge>
                  ) : item.criticPass === true ? (
                    <Badge tone="green">pass</Badge>
                  ) : item.criticPass === false ? (
                    <Badge tone="red">fail</Badge>
                  ) : (
                    <Badge tone="amber">unclear</Badge>
                  )}
                </td>
                <td className="px-3 py-2">
                  <ExecutableBadge
                    value={item.executableValid}
                    outcome={item.verificationOutcome}
                    flaky={item.flaky}
                    isHidden={item.isExecutionHidden}
                  />
                </td>
              </tr>
            ))}
            {items.length === 0 ? (
              <tr>
                <td colSpan={6} className="px-3 py-6 text-center text-slate-500">
                  No records match.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <nav className="mt-3 flex justify-between text-sm" aria-label="Pagination">
        {firstPageHref !== null ? (
          <Link href={firstPageHref} className="text-indigo-700 hover:underline">
            ← First page
          </Link>
        ) : (
          <span />
        )}
        {nextHref ? (
          <Link href={nextHref} className="text-indigo-700 hover:underline">
            Next page →
          </Link>
        ) : null}
      </nav>
    </>
  );
}
