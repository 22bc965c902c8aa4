import Link from "next/link";

import { type Actor, can } from "@/lib/server/auth/permissions";

/** The campaign page's link to the validity report, for those who may export reports. */
export function ReportLink({ actor, campaignId }: { actor: Actor; campaignId: string }) {
  if (!can(actor, "reports:export")) return null;
  return (
    <Link
      href={`/campaigns/${campaignId}/report`}
      prefetch={false}
      className="mb-4 rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
    >
      Report
    </Link>
  );
}
