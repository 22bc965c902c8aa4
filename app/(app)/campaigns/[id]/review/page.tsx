import Link from "next/link";

import { QueueFilters } from "@/components/review/queue-filters";
import { QueueList } from "@/components/review/queue-list";
import { EvidenceQueueList } from "@/components/review/evidence-queue-list";
import { EvidenceQueueTabs } from "@/components/review/evidence-queue-tabs";
import {
  parseQueueQuery,
  type QueueQuery,
  queueSearch,
  toEvidenceQueueFilters,
  toQueueFilters,
} from "@/components/review/queue-query";
import { QueueTabs } from "@/components/review/queue-tabs";
import { PageHeader } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import { formatQueueCursor, parseQueueCursor } from "@/lib/review/queues";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { listCategories } from "@/lib/server/campaigns/list-categories";
import { listCampaignAnnotators, listReviewQueue } from "@/lib/server/review/review";
import { countEvidenceQueues, listEvidenceQueue } from "@/lib/server/review/evidence-queues";
import { orNotFound } from "@/lib/server/not-found";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";

export const metadata = { title: "Review" };

/** The query without its cursor: tabs and filters start again from the first page. */
function filterQueryOf(query: QueueQuery): QueueQuery {
  return { ...query, cursor: undefined };
}

/** An evidence queue's cursor (a position), or null for the first page. */
function evidenceCursor(text: string | undefined): number | null {
  return text && /^\d{1,10}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null;
}

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
  const evidenceFilters = toEvidenceQueueFilters(query);
  const [queue, categories, people, evidenceQueue, evidenceCounts] = await Promise.all([
    listReviewQueue({
      actor,
      campaignId: id,
      filters: toQueueFilters(query),
      cursor: evidenceFilters ? null : parseQueueCursor(query.cursor),
    }),
    listCategories({ actor, campaignId: id }),
    listCampaignAnnotators({ actor, campaignId: id }),
    evidenceFilters
      ? listEvidenceQueue({ actor, campaignId: id, filters: evidenceFilters, cursor: evidenceCursor(query.cursor) })
      : null,
    evidenceFilters
      ? null
      : countEvidenceQueues({
          actor,
          campaignId: id,
          filters: { weakBelow: query.weakBelow, language: query.language },
        }),
  ]);
  const shown = evidenceQueue ?? queue;
  const nextHref = evidenceQueue
    ? evidenceQueue.nextCursor !== null
      ? queueSearch({ ...filterQueryOf(query), cursor: String(evidenceQueue.nextCursor) })
      : null
    : queue.nextCursor
      ? queueSearch({ ...filterQueryOf(query), cursor: formatQueueCursor(queue.nextCursor) })
      : null;
  const filterQuery = filterQueryOf(query);
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
        description={
          evidenceQueue
            ? `Items of ${campaign.name} the evidence points at, labelled or not, in campaign order. ${shown.items.length} shown${nextHref ? ", more on the next pages" : ""}.`
            : `Items of ${campaign.name} that need a reviewer: those in several queues come first. ${shown.items.length} shown${nextHref ? ", more on the next pages" : ""}.`
        }
      />
      <QueueTabs campaignId={id} query={filterQuery} counts={queue.counts} />
      <EvidenceQueueTabs
        campaignId={id}
        query={filterQuery}
        counts={
          evidenceQueue?.counts ?? evidenceCounts ?? { weak_tests: 0, flaky: 0, unsolved: 0, critic_vs_execution: 0 }
        }
      />
      <QueueFilters
        campaignId={id}
        query={filterQuery}
        languages={campaign.languages.map((language) => ({ value: language, label: languageName(language) }))}
        annotators={annotators}
        categories={categories.map((category) => ({ value: category.key, label: category.label }))}
      />
      {evidenceQueue ? (
        <EvidenceQueueList campaignId={id} query={query} items={evidenceQueue.items} />
      ) : (
        <QueueList campaignId={id} query={query} items={queue.items} />
      )}
      <nav aria-label="Pages" className="mt-4 flex gap-3 text-sm">
        {query.cursor ? (
          <Link href={`/campaigns/${id}/review${queueSearch(filterQuery)}`} className="text-indigo-700 hover:underline">
            First page
          </Link>
        ) : null}
        {nextHref ? (
          <Link href={`/campaigns/${id}/review${nextHref}`} className="text-indigo-700 hover:underline">
            Next page →
          </Link>
        ) : null}
      </nav>
    </>
  );
}
