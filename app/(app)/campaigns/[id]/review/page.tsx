import Link from "next/link";

import { QueueFilters } from "@/components/review/queue-filters";
import { QueueList } from "@/components/review/queue-list";
import { parseQueueQuery, queueSearch, toQueueFilters } from "@/components/review/queue-query";
import { QueueTabs } from "@/components/review/queue-tabs";
import { PageHeader } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import { formatQueueCursor, parseQueueCursor } from "@/lib/review/queues";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getCampaign, listCategories } from "@/lib/server/campaigns/campaigns";
import { listCampaignAnnotators, listReviewQueue } from "@/lib/server/review/review";
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
  // The annotator filter lists the people who labelled in this campaign.
  const [queue, categories, people] = await Promise.all([
    listReviewQueue({ actor, campaignId: id, filters: toQueueFilters(query), cursor: parseQueueCursor(query.cursor) }),
    listCategories({ campaignId: id }),
    listCampaignAnnotators({ actor, campaignId: id }),
  ]);
  // Tabs and filters start again from the first page.
  const filterQuery = { ...query, cursor: undefined };
  const annotators = people.map((annotator) => ({
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
        description={`Items of ${campaign.name} that need a reviewer: those in several queues come first. ${queue.items.length} shown${queue.nextCursor ? ", more on the next pages" : ""}.`}
      />
      <QueueTabs campaignId={id} query={filterQuery} counts={queue.counts} />
      <QueueFilters
        campaignId={id}
        query={filterQuery}
        languages={campaign.languages.map((language) => ({ value: language, label: languageName(language) }))}
        annotators={annotators}
        categories={categories.map((category) => ({ value: category.key, label: category.label }))}
      />
      <QueueList campaignId={id} query={query} items={queue.items} />
      <nav aria-label="Pages" className="mt-4 flex gap-3 text-sm">
        {query.cursor ? (
          <Link href={`/campaigns/${id}/review${queueSearch(filterQuery)}`} className="text-indigo-700 hover:underline">
            First page
          </Link>
        ) : null}
        {queue.nextCursor ? (
          <Link
            href={`/campaigns/${id}/review${queueSearch({ ...filterQuery, cursor: formatQueueCursor(queue.nextCursor) })}`}
            className="text-indigo-700 hover:underline"
          >
            Next page →
          </Link>
        ) : null}
      </nav>
    </>
  );
}
