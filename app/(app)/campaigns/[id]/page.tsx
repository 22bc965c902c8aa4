import Link from "next/link";

import { AnnotatorProgressTable } from "@/components/campaigns/annotator-progress-table";
import { CampaignSettings } from "@/components/campaigns/campaign-settings";
import { CampaignManage } from "@/components/campaigns/campaign-manage";
import { CampaignStatusBadge } from "@/components/campaigns/campaign-status-badge";
import { ExtendCampaign } from "@/components/campaigns/extend-campaign";
import { HistoryList } from "@/components/campaigns/history-list";
import { ExtensionNotice } from "@/components/campaigns/extension-notice";
import { ItemDrawNotice } from "@/components/campaigns/item-draw-notice";
import { TaxonomyOrder } from "@/components/campaigns/taxonomy-order";
import { AnsweredThreads } from "@/components/comments/answered-threads";
import { ProgressBar } from "@/components/campaigns/progress-bar";
import { ReportLink } from "@/components/report/report-link";
import { ReviewLinks } from "@/components/review/review-links";
import { recordTitle } from "@/components/campaigns/record-title";
import { Badge, Card, PageHeader } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import { can } from "@/lib/server/auth/permissions";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { listAnnotatorProgress } from "@/lib/server/campaigns/annotator-progress";
import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { getCampaignProgress } from "@/lib/server/campaigns/get-campaign-progress";
import { getLatestCampaignExtension } from "@/lib/server/campaigns/extension-items";
import { listCategories } from "@/lib/server/campaigns/list-categories";
import { listAnsweredThreads } from "@/lib/server/comments/comments";
import { withOthersMessage } from "@/lib/campaigns/with-others";
import { findItemsWithOthers } from "@/lib/server/labelling/find-items-with-others";
import { listMyAnnotations } from "@/lib/server/labelling/list-my-annotations";
import { orNotFound } from "@/lib/server/not-found";

import {
  changeCampaignStatusAction,
  deleteCampaignAction,
  extendCampaignAction,
  reorderCategoriesAction,
  updateCampaignGuidelinesAction,
  updateCampaignSettingsAction,
} from "../actions";
import { countOf } from "@/lib/format/count";

export const metadata = { title: "Campaign" };

export default async function CampaignPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageActor("records:read", `/campaigns/${id}`);
  const campaign = await orNotFound(getCampaign({ actor, campaignId: id }));
  const canLabel = can(actor, "labels:write");
  const canSeeTeam = can(actor, "reports:export");
  const [progress, categories, mine, team, answered, extension] = await Promise.all([
    getCampaignProgress({ actor, campaignId: id }),
    listCategories({ actor, campaignId: id }),
    canLabel ? listMyAnnotations({ actor, campaignId: id }) : Promise.resolve([]),
    canSeeTeam ? listAnnotatorProgress({ actor, campaignId: id }) : Promise.resolve(null),
    can(actor, "comments:write") ? listAnsweredThreads({ actor, campaignId: id }) : Promise.resolve([]),
    can(actor, "campaigns:admin") ? getLatestCampaignExtension({ actor, campaignId: id }) : Promise.resolve(null),
  ]);
  const { submitted, skipped, active, available } = progress.mine;
  const hasWork = active > 0 || available > 0;
  const isOpen = campaign.status === "ACTIVE";
  // A large campaign's items drawn by a job: none to claim until it succeeds (ItemDrawNotice).
  const isDrawing = campaign.itemDraw !== null && campaign.itemDraw.status !== "SUCCEEDED";
  // Nothing free for the annotator now: items leased by others may still come back to them.
  const withOthers =
    canLabel && isOpen && !isDrawing && !hasWork ? await findItemsWithOthers({ actor, campaignId: id }) : null;

  return (
    <>
      <nav className="mb-2 text-sm text-slate-500">
        <Link href="/campaigns" className="hover:underline">
          Campaigns
        </Link>{" "}
        / {campaign.dataset}
      </nav>
      <PageHeader
        title={
          <>
            {campaign.name} <CampaignStatusBadge status={campaign.status} />
          </>
        }
        // progress.items, not itemCount: an annotator's own gold items count among the items they see.
        description={`${countOf(progress.items, "item")} from ${campaign.dataset} · overlap ${campaign.overlap} · ${campaign.finalRule} rule${campaign.seed === undefined ? "" : ` · seed ${campaign.seed}`}`}
        actions={
          canLabel && isDrawing ? (
            <Badge tone="amber">Items are being drawn: no items yet</Badge>
          ) : canLabel && !isOpen ? (
            <Badge tone="amber">This campaign is {campaign.status.toLowerCase()}: no new items</Badge>
          ) : canLabel && hasWork ? (
            <Link
              href={`/campaigns/${id}/next`}
              prefetch={false}
              className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
            >
              {active > 0 || submitted > 0 || skipped > 0 ? "Continue" : "Start"}
            </Link>
          ) : canLabel && withOthers ? (
            <Badge tone="amber">{withOthersMessage(withOthers.items)}</Badge>
          ) : canLabel ? (
            <Badge tone="green">Nothing left for you here</Badge>
          ) : null
        }
      />
      <ItemDrawNotice itemDraw={campaign.itemDraw} />
      <ExtensionNotice extension={extension} />
      <AnsweredThreads campaignId={id} threads={answered} />
      <div className="flex flex-wrap items-start gap-2">
        <ReviewLinks actor={actor} campaignId={id} />
        <ReportLink actor={actor} campaignId={id} />
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="Overall progress" className="lg:col-span-2">
          <div className="space-y-4">
            <ProgressBar
              label="Labels, all annotators"
              done={progress.annotationsDone}
              wanted={progress.annotationsWanted}
            />
            <p className="text-sm text-slate-600">
              {progress.itemsComplete === null
                ? countOf(progress.items, "item")
                : `${progress.itemsComplete} of ${countOf(progress.items, "item")} complete`}{" "}
              · {progress.activeLeases} being worked on now {campaign.blind ? "· " : ""}
              {campaign.blind ? <Badge tone="amber">blind</Badge> : null}
            </p>
            <div className="grid gap-3 sm:grid-cols-2">
              {Object.entries(progress.byLanguage)
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([language, row]) => (
                  <ProgressBar
                    key={language}
                    label={languageName(language)}
                    done={row.annotationsDone}
                    wanted={row.annotationsWanted}
                  />
                ))}
            </div>
          </div>
        </Card>
        <Card title="Your progress">
          <dl className="grid grid-cols-2 gap-3 text-sm" aria-label="Your progress">
            {[
              ["Submitted", submitted],
              ["Skipped", skipped],
              ["In progress", active],
              ["Still available", available],
            ].map(([label, value]) => (
              <div key={label} className="rounded-md bg-slate-50 p-2 ring-1 ring-slate-200">
                <dt className="text-xs text-slate-500">{label}</dt>
                <dd
                  className="text-lg font-semibold tabular-nums text-slate-900"
                  data-testid={`mine-${String(label).toLowerCase().replaceAll(" ", "-")}`}
                >
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          {actor.languages.length === 0 ? (
            <p className="mt-3 text-xs text-slate-500">You have no languages yet; ask an admin to add yours.</p>
          ) : null}
        </Card>
      </div>
      {team ? (
        <Card title="Annotators" className="mt-4">
          <AnnotatorProgressTable rows={team} />
        </Card>
      ) : null}
      {can(actor, "campaigns:admin") ? (
        <>
          <Card title="Guidelines and note rule" className="mt-4">
            <CampaignSettings
              campaignId={id}
              guidelines={campaign.guidelines}
              requireInvalidNote={campaign.requireInvalidNote}
              saveGuidelines={updateCampaignGuidelinesAction}
            />
          </Card>
          <Card title="Manage campaign" className="mt-4">
            <CampaignManage
              campaignId={id}
              name={campaign.name}
              overlap={campaign.overlap}
              goldShare={campaign.goldShare ?? 0}
              visibility={campaign.visibility}
              status={campaign.status}
              hasLabels={progress.annotationsDone > 0}
              // The server refuses the change once any item was claimed; this hides it in the usual cases.
              hasClaims={progress.annotationsDone > 0 || progress.activeLeases > 0}
              updateSettings={updateCampaignSettingsAction}
              changeStatus={changeCampaignStatusAction}
              deleteCampaign={deleteCampaignAction}
            />
          </Card>
          <Card title="Error categories" className="mt-4">
            <TaxonomyOrder
              campaignId={id}
              categories={categories.map((category) => ({ key: category.key, label: category.label }))}
              isFixed={progress.annotationsDone > 0}
              saveOrder={reorderCategoriesAction}
            />
          </Card>
          <Card title="Add records" className="mt-4">
            <ExtendCampaign campaignId={id} perLanguage={campaign.perLanguage} extend={extendCampaignAction} />
          </Card>
        </>
      ) : null}
      {canLabel ? (
        <Card title="Your labels" className="mt-4">
          <HistoryList
            campaignId={id}
            categoryLabels={Object.fromEntries(categories.map((category) => [category.key, category.label]))}
            entries={mine.map((entry) => ({
              id: entry.id,
              itemId: entry.itemId,
              valid: entry.valid,
              categories: entry.categories,
              note: entry.note,
              revision: entry.revision,
              updatedAt: entry.updatedAt,
              language: entry.item.language,
              title: recordTitle(entry.item.record.question),
            }))}
          />
        </Card>
      ) : null}
    </>
  );
}
