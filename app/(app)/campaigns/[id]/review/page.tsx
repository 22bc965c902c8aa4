import { QueueFilters } from "@/components/review/queue-filters";
import { QueueList } from "@/components/review/queue-list";
import { parseQueueQuery, toQueueFilters } from "@/components/review/queue-query";
import { QueueTabs } from "@/components/review/queue-tabs";
import { PageHeader } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import { can } from "@/lib/server/auth/permissions";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getCampaignAgreement } from "@/lib/server/db/agreement";
import { getCampaign, listCategories } from "@/lib/server/db/campaigns";
import { listReviewQueue } from "@/lib/server/db/review";
import { orNotFound } from "@/lib/server/not-found";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";

export const metadata = { title: "Review" };

export default async function ReviewQueuePage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const actor = await requirePageActor("reviews:write", `/campaigns/${id}/review`);
  const query = parseQueueQuery(await searchParams);
  const campaign = await orNotFound(getCampaign({ actor, campaignId: id }));
  // The annotator filter lists the people who labelled in this campaign; the agreement figures carry them.
  const [queue, categories, agreement] = await Promise.all([
    listReviewQueue({ actor, campaignId: id, filters: toQueueFilters(query) }),
    listCategories({ campaignId: id }),
    can(actor, "reports:export") ? getCampaignAgreement({ actor, campaignId: id }) : Promise.resolve(null),
  ]);
  const annotators = (agreement?.annotators ?? []).map((annotator) => ({
    value: annotator.userId,
    label: annotator.name ? `${annotator.name} (${annotator.email})` : annotator.email,
  }));

  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Campaigns", href: "/campaigns" },
          { label: campaign.name, href: `/campaigns/${id}` },
        ]}
      />
      <PageHeader
        title="Review queues"
        description={`Items of ${campaign.name} that need a reviewer: those in several queues come first. ${queue.items.length} shown.`}
      />
      <QueueTabs campaignId={id} query={query} counts={queue.counts} />
      <QueueFilters
        campaignId={id}
        query={query}
        languages={campaign.languages.map((language) => ({ value: language, label: languageName(language) }))}
        annotators={annotators}
        categories={categories.map((category) => ({ value: category.key, label: category.label }))}
      />
      <QueueList campaignId={id} query={query} items={queue.items} />
    </>
  );
}
