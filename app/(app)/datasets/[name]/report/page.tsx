import Link from "next/link";

import { DownloadsCard, tableDownloads } from "@/components/report/report-downloads";
import { DawidSkeneCard } from "@/components/report/dawid-skene-card";
import { ReportView } from "@/components/report/report-view";
import { Card, PageHeader } from "@/components/ui/primitives";
import { reportToMarkdown } from "@/lib/reports/format";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getDatasetDawidSkene } from "@/lib/server/reports/dawid-skene";
import { getDatasetReport } from "@/lib/server/reports/reports";
import { pathSegment } from "@/lib/server/http";
import { orNotFound } from "@/lib/server/not-found";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { countOf } from "@/lib/format/count";

export const metadata = { title: "Dataset report" };

export default async function DatasetReportPage({
  params,
  searchParams,
}: {
  params: Promise<{ name: string }>;
  searchParams: Promise<{ estimate?: string | string[] }>;
}) {
  const name = pathSegment((await params).name);
  const path = `/datasets/${encodeURIComponent(name)}/report`;
  const actor = await requirePageActor("reports:export", path);
  const report = await orNotFound(getDatasetReport({ actor, datasetName: name }));
  // Asked for explicitly: the rule-based table above stays the report's figure.
  const showsDawidSkene = (await searchParams).estimate === "dawid-skene";
  const dawidSkene = showsDawidSkene ? await getDatasetDawidSkene({ actor, datasetName: name }) : null;
  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Datasets", href: "/datasets" },
          { label: name, href: `/datasets/${encodeURIComponent(name)}` },
          { label: "Report" },
        ]}
      />
      <PageHeader
        title={`Validity report: ${name}, all campaigns`}
        description={`${report.campaigns.length} campaign${report.campaigns.length === 1 ? "" : "s"}. ${report.rule} Validity is valid / resolved, with a Wilson 95% interval.`}
      />
      <p role="note" className="mb-4 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200">
        {report.sampling.note}
        {report.leftOut.campaigns.length > 0
          ? ` (${report.leftOut.campaigns.map((campaign) => campaign.name).join(", ")}: ${countOf(report.leftOut.items, "item")}.)`
          : null}
      </p>
      {report.campaigns.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-600">No campaign covers this dataset yet.</p>
        </Card>
      ) : (
        <ReportView
          report={report}
          downloads={
            <>
              <DownloadsCard
                groups={[tableDownloads(`/api/v1/datasets/${encodeURIComponent(name)}/report`)]}
                markdown={reportToMarkdown(report, { note: `${report.rule} ${report.sampling.note}` })}
              />
              <Card title="Label aggregation by competence">
                {dawidSkene ? (
                  <p className="text-sm text-slate-600">
                    The Dawid–Skene estimate is below.{" "}
                    <Link className="text-indigo-700 hover:underline" href={path}>
                      Hide it
                    </Link>
                  </p>
                ) : (
                  <p className="text-sm text-slate-600">
                    Weigh each annotator by how reliable their labels are (learnt from the labels and the gold answers)
                    instead of counting votes:{" "}
                    <Link className="text-indigo-700 hover:underline" href={`${path}?estimate=dawid-skene`}>
                      show the Dawid–Skene estimate
                    </Link>
                    .
                  </p>
                )}
              </Card>
              <Card title="Per-campaign downloads">
                <p className="text-sm text-slate-600">
                  Labels and the verified subset are per campaign:{" "}
                  {report.campaigns.map((campaign, index) => (
                    <span key={campaign.id}>
                      {index ? ", " : ""}
                      <Link className="text-indigo-700 hover:underline" href={`/campaigns/${campaign.id}/report`}>
                        {campaign.name}
                      </Link>
                    </span>
                  ))}
                </p>
              </Card>
            </>
          }
        />
      )}
      {dawidSkene ? (
        <div className="mt-6">
          <DawidSkeneCard estimate={dawidSkene} />
        </div>
      ) : null}
    </>
  );
}
