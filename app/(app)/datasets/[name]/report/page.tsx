import Link from "next/link";

import { ReportView } from "@/components/report/report-view";
import { Card, PageHeader } from "@/components/ui/primitives";
import { reportToMarkdown } from "@/lib/reports/format";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getDatasetReport } from "@/lib/server/db/reports";
import { pathSegment } from "@/lib/server/http";
import { orNotFound } from "@/lib/server/not-found";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";

export const metadata = { title: "Dataset report" };

export default async function DatasetReportPage({ params }: { params: Promise<{ name: string }> }) {
  const name = pathSegment((await params).name);
  const actor = await requirePageActor("reports:export", `/datasets/${encodeURIComponent(name)}/report`);
  const report = await orNotFound(getDatasetReport({ actor, datasetName: name }));
  return (
    <>
      <Breadcrumbs items={[{ label: "Datasets", href: "/datasets" }, { label: name, href: `/datasets/${encodeURIComponent(name)}` }, { label: "Report" }]} />
      <PageHeader
        title={`Validity report: ${name}, all campaigns`}
        description={`${report.campaigns.length} campaign${report.campaigns.length === 1 ? "" : "s"}; a record labelled in several counts once, with its latest resolved label. Validity is valid / resolved, with a Wilson 95% interval.`}
      />
      {report.campaigns.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-600">No campaign covers this dataset yet.</p>
        </Card>
      ) : (
        <ReportView
          report={report}
          downloads={
            <Card title="Paper table (Markdown)">
              <p className="mb-2 text-sm text-slate-600">
                Per-campaign downloads (CSV, JSON, labels, verified subset):{" "}
                {report.campaigns.map((campaign, index) => (
                  <span key={campaign.id}>
                    {index ? ", " : ""}
                    <Link className="text-indigo-700 hover:underline" href={`/campaigns/${campaign.id}/report`}>
                      {campaign.name}
                    </Link>
                  </span>
                ))}
              </p>
              <pre className="overflow-x-auto rounded bg-slate-50 p-3 font-mono text-xs ring-1 ring-slate-200">{reportToMarkdown(report)}</pre>
            </Card>
          }
        />
      )}
    </>
  );
}
