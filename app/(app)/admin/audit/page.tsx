import Link from "next/link";

import { AuditFilters } from "@/components/audit/audit-filters";
import { auditSearch, parseAuditQuery } from "@/components/audit/audit-query";
import { AuditTable } from "@/components/audit/audit-table";
import { PageHeader } from "@/components/ui/primitives";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { listAuditEvents } from "@/lib/server/db/audit";

export const metadata = { title: "Audit log" };

const PAGE_SIZE = 100;

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requirePageActor("users:admin", "/admin/audit");
  const { before, ...filters } = parseAuditQuery(await searchParams);
  const { events, nextBefore } = await listAuditEvents({
    actor,
    filters: { action: filters.action, targetType: filters.targetType, actorEmail: filters.actor, since: filters.since ? new Date(`${filters.since}T00:00:00Z`) : undefined },
    limit: PAGE_SIZE,
    before,
  });

  return (
    <>
      <PageHeader title="Audit log" description="Every change to labels, decisions, people, tokens, datasets and campaigns, newest first." />
      <AuditFilters query={filters} />
      <AuditTable events={events} />
      <nav aria-label="Pages" className="mt-4 flex gap-4 text-sm">
        {before ? (
          <Link href={`/admin/audit${auditSearch(filters)}`} className="text-indigo-700 hover:underline">
            ← Newest
          </Link>
        ) : null}
        {nextBefore ? (
          <Link href={`/admin/audit${auditSearch({ ...filters, before: nextBefore })}`} className="text-indigo-700 hover:underline">
            Older →
          </Link>
        ) : null}
      </nav>
    </>
  );
}
