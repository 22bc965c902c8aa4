import Link from "next/link";

import { Card, PageHeader } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { listRepairs } from "@/lib/server/revisions/queries";
import { repairsQuerySchema } from "@/lib/validation/revisions";

export const metadata = { title: "Repairs" };

export default async function RepairsPage({ searchParams }: { searchParams: Promise<Record<string, string>> }) {
  const actor = await requirePageActor("revisions:check", "/repairs");
  const query = repairsQuerySchema.safeParse(await searchParams);
  const { repairs, nextCursor } = await listRepairs({ actor, ...(query.success ? query.data : {}) });
  return (
    <>
      <PageHeader
        title="Repairs"
        description="Revised records waiting for a second check. Label each one as you would a new record: its author's reason and label stay hidden until you have decided."
      />
      <Card>
        {repairs.length === 0 ? (
          <p className="text-sm text-slate-500">No repair waits for you.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm" aria-label="Repairs queue">
            {repairs.map((repair) => (
              <li key={repair.id} className="flex flex-wrap items-center gap-3 py-2">
                <Link href={`/repairs/${repair.id}`} className="font-medium text-indigo-700 hover:underline">
                  Check {repair.title}
                </Link>
                <span className="text-slate-500">
                  {languageName(repair.language)} · {repair.dataset} · record {repair.recordId}, revision{" "}
                  {repair.number}
                </span>
              </li>
            ))}
          </ul>
        )}
        {nextCursor ? (
          <Link
            href={`/repairs?cursor=${nextCursor}`}
            className="mt-3 inline-block text-sm text-indigo-700 hover:underline"
          >
            Next page
          </Link>
        ) : null}
      </Card>
    </>
  );
}
