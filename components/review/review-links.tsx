import Link from "next/link";

import { type Actor, can } from "@/lib/server/auth/permissions";

const linkStyle =
  "rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";

/** Links from a campaign to its review queues and agreement figures, for the roles that may open them. */
export function ReviewLinks({ actor, campaignId }: { actor: Actor; campaignId: string }) {
  const canReview = can(actor, "reviews:write");
  const canReport = can(actor, "reports:export");
  if (!canReview && !canReport) return null;
  return (
    <nav aria-label="Review" className="mb-4 flex flex-wrap gap-2">
      {canReview ? (
        <Link href={`/campaigns/${campaignId}/review`} prefetch={false} className={linkStyle}>
          Review queues
        </Link>
      ) : null}
      {canReport ? (
        <Link href={`/campaigns/${campaignId}/agreement`} prefetch={false} className={linkStyle}>
          Agreement
        </Link>
      ) : null}
    </nav>
  );
}
