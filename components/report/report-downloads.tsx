import { Card } from "@/components/ui/primitives";

import { CopyButton } from "./copy-button";

const linkClass =
  "inline-flex items-center rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";

type Group = { title: string; links: { label: string; href: string }[] };

/** The validity table's downloads, for a campaign or a dataset report route. */
export const tableDownloads = (reportHref: string): Group => ({
  title: "Validity table",
  links: [
    { label: "Table as CSV", href: `${reportHref}?format=csv` },
    { label: "Table as Markdown", href: `${reportHref}?format=md` },
    { label: "Report as JSON", href: `${reportHref}?format=json` },
  ],
});

/**
 * Download links for the table and the labels (the REST exports; the session cookie authenticates
 * them; each file is named after the campaign and the date), and the Markdown table to copy.
 */
export function ReportDownloads({ campaignId, markdown }: { campaignId: string; markdown: string }) {
  const base = `/api/v1/campaigns/${encodeURIComponent(campaignId)}`;
  return (
    <DownloadsCard
      markdown={markdown}
      groups={[
        tableDownloads(`${base}/report`),
        {
          title: "Labels, one row per annotation",
          links: [
            { label: "Annotations as CSV", href: `${base}/export?what=annotations&format=csv` },
            { label: "Annotations as JSONL", href: `${base}/export?what=annotations&format=jsonl` },
          ],
        },
        {
          title: "Labels, one row per item",
          links: [
            { label: "Final labels as CSV", href: `${base}/export?what=labels&format=csv` },
            { label: "Final labels as JSONL", href: `${base}/export?what=labels&format=jsonl` },
          ],
        },
        {
          title: "Records finally judged valid",
          links: [{ label: "Verified subset as JSONL", href: `${base}/export?what=verified&format=jsonl` }],
        },
      ]}
    />
  );
}

/** Groups of download links, then the Markdown table to copy. */
export function DownloadsCard({ groups, markdown }: { groups: Group[]; markdown: string }) {
  return (
    <Card title="Downloads">
      <div className="grid gap-4 sm:grid-cols-2">
        {groups.map((group) => (
          <div key={group.title}>
            <h3 className="mb-2 text-xs font-medium uppercase tracking-wide text-slate-500">{group.title}</h3>
            <ul className="flex flex-wrap gap-2">
              {group.links.map((link) => (
                <li key={link.href}>
                  <a href={link.href} download className={linkClass}>
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="mt-6">
        <div className="mb-2 flex items-center justify-between gap-3">
          <h3 id="markdown-table" className="text-xs font-medium uppercase tracking-wide text-slate-500">
            Markdown table, paper-ready
          </h3>
          <CopyButton text={markdown} label="Copy Markdown" />
        </div>
        <pre
          aria-labelledby="markdown-table"
          tabIndex={0}
          className="overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100"
        >
          {markdown}
        </pre>
      </div>
    </Card>
  );
}
