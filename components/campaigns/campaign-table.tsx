import Link from "next/link";

import { Badge } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import type { CampaignProgress, CampaignSummary } from "@/lib/server/db/campaigns";

import { CampaignStatusBadge } from "./campaign-status-badge";
import { ProgressBar } from "./progress-bar";

export type CampaignRow = CampaignSummary & { progress: CampaignProgress };

/** The campaigns the viewer can see, with sample size, overlap, blind mode and progress. */
export function CampaignTable({ campaigns }: { campaigns: CampaignRow[] }) {
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2">Campaign</th>
            <th scope="col" className="px-3 py-2">Dataset</th>
            <th scope="col" className="px-3 py-2">Languages</th>
            <th scope="col" className="px-3 py-2 text-right">Items</th>
            <th scope="col" className="px-3 py-2 text-right">Overlap</th>
            <th scope="col" className="px-3 py-2">Mode</th>
            <th scope="col" className="w-56 px-3 py-2">Progress</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {campaigns.map((campaign) => (
            <tr key={campaign.id}>
              <td className="px-3 py-2">
                <Link href={`/campaigns/${campaign.id}`} className="font-medium text-indigo-700 hover:underline">
                  {campaign.name}
                </Link>
                {campaign.status === "ACTIVE" ? null : (
                  <span className="ml-2">
                    <CampaignStatusBadge status={campaign.status} />
                  </span>
                )}
              </td>
              <td className="px-3 py-2 text-slate-700">{campaign.dataset}</td>
              <td className="px-3 py-2 text-slate-700">{campaign.languages.map((language) => languageName(language)).join(", ")}</td>
              <td className="px-3 py-2 text-right tabular-nums">{campaign.itemCount.toLocaleString("en")}</td>
              <td className="px-3 py-2 text-right tabular-nums" title={campaign.agreementFraction > 0 ? `${Math.round(campaign.agreementFraction * 100)}% get a second annotator` : undefined}>
                {campaign.overlap}
                {campaign.agreementFraction > 0 ? ` (+${Math.round(campaign.agreementFraction * 100)}%)` : ""}
              </td>
              <td className="px-3 py-2">{campaign.blind ? <Badge tone="amber">blind</Badge> : <Badge>open</Badge>}</td>
              <td className="px-3 py-2">
                <ProgressBar done={campaign.progress.annotationsDone} wanted={campaign.progress.annotationsWanted} label={`Labels for ${campaign.name}`} caption="Labels" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
