import { headers } from "next/headers";
import Link from "next/link";
import { redirect } from "next/navigation";

import { StartNextItem } from "@/components/campaigns/start-next-item";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { withOthersMessage } from "@/lib/campaigns/with-others";
import { claimNextItemWithRetry } from "@/lib/server/labelling/next-item";
import { findItemsWithOthers } from "@/lib/server/labelling/find-items-with-others";
import { isDeliberateNavigation } from "@/lib/server/http";
import { orNotFound } from "@/lib/server/not-found";

import { claimNextItemAction } from "./actions";

export const metadata = { title: "Next item" };

/**
 * Claims the viewer's next item (or their current lease) and opens it, when the viewer navigated here
 * from the app (or typed the address); any other GET (an <img> or link on another site or port)
 * gets a "Start / next item" button instead, since claiming takes a lease. Says so when nothing is left,
 * and says that items are with other annotators when they may still come back here.
 */
export default async function NextItemPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageActor("labels:write", `/campaigns/${id}/next`);
  const campaign = await orNotFound(getCampaign({ actor, campaignId: id }));
  if (campaign.status !== "ACTIVE") {
    return (
      <>
        <PageHeader title={`This campaign is ${campaign.status.toLowerCase()}`} description={campaign.name} />
        <Card>
          <p className="text-sm text-slate-700">
            No new items are handed out while the campaign is {campaign.status.toLowerCase()}. Your submitted labels are
            kept.
          </p>
          <Link href={`/campaigns/${id}`} className="mt-4 inline-block text-sm text-indigo-700 hover:underline">
            Back to the campaign
          </Link>
        </Card>
      </>
    );
  }
  if (!isDeliberateNavigation(await headers())) {
    return (
      <>
        <PageHeader title="Start labelling" description={campaign.name} />
        <Card>
          <p className="mb-4 text-sm text-slate-700">
            The button takes your next item in this campaign (or the one you hold) and opens it.
          </p>
          <StartNextItem campaignId={id} claim={claimNextItemAction} />
        </Card>
      </>
    );
  }
  const claim = await claimNextItemWithRetry({ actor, campaignId: id });
  if (claim) redirect(`/campaigns/${id}/items/${claim.itemId}`);
  const withOthers = await findItemsWithOthers({ actor, campaignId: id });
  if (withOthers) {
    return (
      <>
        <PageHeader title="Nothing to hand you right now" description={campaign.name} />
        <Card>
          <p className="text-sm text-slate-700">{withOthersMessage(withOthers.items)}</p>
          <p className="mt-2 text-sm text-slate-600">
            The first lease runs out at {withOthers.nextLeaseEndsAt.toISOString().slice(11, 16)} UTC unless its
            annotator submits first.
          </p>
          <div className="mt-4 flex gap-4">
            <Link
              href={`/campaigns/${id}/next`}
              prefetch={false}
              autoFocus
              className="inline-block rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
            >
              Try again
            </Link>
            <Link href={`/campaigns/${id}`} className="inline-block py-1.5 text-sm text-indigo-700 hover:underline">
              Back to the campaign
            </Link>
          </div>
        </Card>
      </>
    );
  }

  return (
    <>
      <PageHeader title="You're done with this campaign" description={campaign.name} />
      <Card>
        <p className="text-sm text-slate-700">
          There is nothing left for you to label here: every item in your languages is either labelled by you, skipped
          by you, or has all the annotators it needs. Thank you!
        </p>
        <Link
          href={`/campaigns/${id}`}
          autoFocus
          className="mt-4 inline-block rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          Back to the campaign
        </Link>
      </Card>
    </>
  );
}
