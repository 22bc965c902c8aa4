import Link from "next/link";

import { type Column, DataTable } from "@/components/ui/data-table";
import { Badge } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import type { CampaignListProgress, CampaignSummary } from "@/lib/campaigns/types";

import { CampaignStatusBadge } from "./campaign-status-badge";
import { ProgressBar } from "./progress-bar";

export type CampaignRow = CampaignSummary & { progress: CampaignListProgress };

const COLUMNS: Column[] = [
  { label: "Campaign" },
  { label: "Dataset" },
  { label: "Languages" },
  { label: "Items", numeric: true },
  { label: "Overlap", numeric: true },
  { label: "Mode" },
  { label: "Progress", className: "w-56" },
];

/** The campaigns the viewer can see, with sample size, overlap, blind mode and progress. */
export function CampaignTable({ campaigns }: { campaigns: CampaignRow[] }) {
  return (
    <DataTable boxed columns={COLUMNS}>
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
          <td className="px-3 py-2 text-slate-700">
            {campaign.languages.map((language) => languageName(language)).join(", ")}
          </td>
          <td className="px-3 py-2 text-right tabular-nums">
            {campaign.itemDraw?.status === "RUNNING" ? (
              <Badge tone="amber">drawing items…</Badge>
            ) : campaign.itemDraw?.status === "FAILED" ? (
              <Badge tone="red">not drawn</Badge>
            ) : (
              campaign.itemCount.toLocaleString("en")
            )}
          </td>
          <td
            className="px-3 py-2 text-right tabular-nums"
            title={
              campaign.agreementFraction > 0
                ? `${Math.round(campaign.agreementFraction * 100)}% get a second annotator`
                : undefined
            }
          >
            {campaign.overlap}
            {campaign.agreementFraction > 0 ? ` (+${Math.round(campaign.agreementFraction * 100)}%)` : ""}
          </td>
          <td className="px-3 py-2">{campaign.blind ? <Badge tone="amber">blind</Badge> : <Badge>open</Badge>}</td>
          <td className="px-3 py-2">
            <ProgressBar
              done={campaign.progress.annotationsDone}
              wanted={campaign.progress.annotationsWanted}
              label={`Labels for ${campaign.name}`}
              caption="Labels"
            />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
