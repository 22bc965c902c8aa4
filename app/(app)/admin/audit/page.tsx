import Link from "next/link";

import { AuditFilters } from "@/components/audit/audit-filters";
import { auditSearch, parseAuditQuery } from "@/components/audit/audit-query";
import { AuditTable } from "@/components/audit/audit-table";
import { PageHeader } from "@/components/ui/primitives";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { can } from "@/lib/server/auth/permissions";
import { listAuditEvents } from "@/lib/server/audit/audit";
import { listCampaigns } from "@/lib/server/campaigns/list-campaigns";

export const metadata = { title: "Audit log" };

const PAGE_SIZE = 100;

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const actor = await requirePageActor("audit:read", "/admin/audit");
  const { before, ...filters } = parseAuditQuery(await searchParams);
  const [{ events, nextBefore }, campaigns] = await Promise.all([
    listAuditEvents({
      actor,
      filters: {
        action: filters.action,
        targetType: filters.targetType,
        campaignId: filters.campaign,
        actorEmail: filters.actor,
        since: filters.since ? new Date(`${filters.since}T00:00:00Z`) : undefined,
      },
      limit: PAGE_SIZE,
      before,
    }),
    listCampaigns({ actor }),
  ]);

  return (
    <>
      <PageHeader
        title="Audit log"
        description={
          can(actor, "users:admin")
            ? "Every change to labels, decisions, comments, people, tokens, datasets and campaigns, newest first."
            : "Every change to the campaigns' labels, decisions, comments and settings, newest first."
        }
      />
      <AuditFilters query={filters} campaigns={campaigns} />
      <AuditTable events={events} />
      <nav aria-label="Pages" className="mt-4 flex gap-4 text-sm">
        {before ? (
          <Link href={`/admin/audit${auditSearch(filters)}`} className="text-indigo-700 hover:underline">
            ← Newest
          </Link>
        ) : null}
        {nextBefore ? (
          <Link
            href={`/admin/audit${auditSearch({ ...filters, before: nextBefore })}`}
            className="text-indigo-700 hover:underline"
          >
            Older →
          </Link>
        ) : null}
      </nav>
    </>
  );
}
