import { CampaignForm } from "@/components/campaigns/campaign-form";
import { CampaignTable } from "@/components/campaigns/campaign-table";
import { DeletionNotices } from "@/components/campaigns/deletion-notices";
import { RefreshWhileRunning } from "@/components/jobs/refresh-while-running";
import { Card, PageHeader } from "@/components/ui/primitives";
import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import { can } from "@/lib/server/auth/permissions";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { listCampaignProgress } from "@/lib/server/campaigns/list-campaign-progress";
import { listCampaigns } from "@/lib/server/campaigns/list-campaigns";
import { listPendingCampaignDeletions } from "@/lib/server/campaigns/remove-campaign";
import { listDatasets } from "@/lib/server/records/records";

import { createCampaignAction, deleteCampaignAction } from "./actions";

export const metadata = { title: "Campaigns" };

export default async function CampaignsPage() {
  const actor = await requirePageActor("records:read", "/campaigns");
  const isAdmin = can(actor, "campaigns:admin");
  const [campaigns, datasets, deletions] = await Promise.all([
    listCampaigns({ actor }),
    isAdmin ? listDatasets({ actor }) : Promise.resolve([]),
    listPendingCampaignDeletions({ actor }),
  ]);
  const progress = await listCampaignProgress({ actor, campaignIds: campaigns.map((campaign) => campaign.id) });
  const rows = campaigns.flatMap((campaign) => {
    const counts = progress.get(campaign.id);
    return counts ? [{ ...campaign, progress: counts }] : [];
  });

  return (
    <>
      <PageHeader
        title="Campaigns"
        description="Verification campaigns: a seeded sample of a dataset, labelled by people who know its languages."
      />
      <div className="space-y-6">
        {/* A large campaign deleted is gone from the list at once; a job removes it (issue 36). */}
        <DeletionNotices deletions={deletions} deleteAgain={isAdmin ? deleteCampaignAction : undefined} />
        {rows.length === 0 ? (
          <Card>
            <p className="text-sm text-slate-600">
              No campaigns yet.{isAdmin ? " Create one below." : " An admin has to create one in your languages first."}
            </p>
          </Card>
        ) : (
          <>
            <CampaignTable campaigns={rows} />
            {/* A large campaign's items are drawn by a job: the list follows it until they are in. */}
            <RefreshWhileRunning
              isRunning={rows.some((campaign) => campaign.itemDraw?.status === "RUNNING")}
              everyMs={2000}
            />
          </>
        )}
        {isAdmin ? (
          <Card title="New campaign">
            {datasets.length === 0 ? (
              <p className="text-sm text-slate-600">Import a dataset first.</p>
            ) : (
              <CampaignForm
                datasets={datasets.map((dataset) => ({
                  name: dataset.name,
                  languages: Object.keys(dataset.byLanguage).sort(),
                }))}
                defaultCategories={[...DEFAULT_CATEGORIES]}
                createCampaign={createCampaignAction}
              />
            )}
          </Card>
        ) : null}
      </div>
    </>
  );
}
