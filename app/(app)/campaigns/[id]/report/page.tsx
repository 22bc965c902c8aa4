import { ReportDownloads } from "@/components/report/report-downloads";
import { ReportView } from "@/components/report/report-view";
import { PageHeader } from "@/components/ui/primitives";
import { reportToMarkdown } from "@/lib/reports/format";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getCampaignReport } from "@/lib/server/reports/reports";
import { orNotFound } from "@/lib/server/not-found";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";

export const metadata = { title: "Validity report" };

export default async function CampaignReportPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageActor("reports:export", `/campaigns/${id}/report`);
  const report = await orNotFound(getCampaignReport({ actor, campaignId: id }));
  const { campaign } = report;

  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Campaigns", href: "/campaigns" },
          { label: campaign.name, href: `/campaigns/${id}` },
          { label: "Report" },
        ]}
      />
      <PageHeader
        title={`Validity report: ${campaign.name}`}
        description={`${campaign.dataset} · overlap ${campaign.overlap} · ${campaign.finalRule} rule. Validity is valid / resolved items, with a Wilson 95% interval; hover a “—” to see why a value is undefined.`}
      />
      <p
        role="note"
        className={`mb-4 rounded-md px-3 py-2 text-sm ring-1 ${report.sampling.mode === "suspicion" ? "bg-amber-50 text-amber-900 ring-amber-200" : "bg-slate-50 text-slate-700 ring-slate-200"}`}
      >
        {report.sampling.note}
      </p>
      <ReportView
        report={report}
        downloads={
          <ReportDownloads campaignId={id} markdown={reportToMarkdown(report, { note: report.sampling.note })} />
        }
      />
    </>
  );
}
