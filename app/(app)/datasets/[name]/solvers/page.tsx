import Link from "next/link";

import { importSolutionsAction, solutionRunProgressAction } from "@/app/(app)/datasets/actions";
import { PassAtOneTable } from "@/components/solvers/pass-at-one-table";
import { SolutionImport } from "@/components/solvers/solution-import";
import { SolutionRunProgress } from "@/components/solvers/solution-run-progress";
import { DataTable } from "@/components/ui/data-table";
import { Badge, Card, PageHeader } from "@/components/ui/primitives";
import { passAtOneByModel } from "@/lib/metrics/solvers";
import { languageName } from "@/lib/records/languages";
import { recordTitle } from "@/lib/records/title";
import { can } from "@/lib/server/auth/permissions";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { latestSolutionBatch } from "@/lib/server/solvers/latest-solution-batch";
import { recordSolversPage } from "@/lib/server/solvers/record-solvers-page";
import { solverCounts } from "@/lib/server/solvers/solver-counts";
import { pathSegment } from "@/lib/server/http";
import { orNotFound } from "@/lib/server/not-found";
import { recordSolversQuerySchema } from "@/lib/validation/solutions";

export const metadata = { title: "Solver results" };
export const dynamic = "force-dynamic";

const PAGE_SIZE = 50;

export default async function SolversPage({
  params,
  searchParams,
}: {
  params: Promise<{ name: string }>;
  searchParams: Promise<Record<string, string>>;
}) {
  const name = pathSegment((await params).name);
  const path = `/datasets/${encodeURIComponent(name)}/solvers`;
  const actor = await requirePageActor("records:read", path);
  const parsed = recordSolversQuerySchema.safeParse({ ...(await searchParams), limit: String(PAGE_SIZE) });
  const query = parsed.success ? parsed.data : { unsolved: false, cursor: undefined, limit: PAGE_SIZE };
  const [counts, latest, page] = await orNotFound(
    Promise.all([
      solverCounts({ actor, datasetName: name }),
      latestSolutionBatch({ actor, datasetName: name }),
      recordSolversPage({
        actor,
        datasetName: name,
        unsolvedOnly: query.unsolved,
        cursor: query.cursor ?? null,
        limit: query.limit,
      }),
    ]),
  );
  const models = passAtOneByModel(counts);
  const pageHref = (extra: Record<string, string>) =>
    `${path}?${new URLSearchParams({ ...(query.unsolved ? { unsolved: "1" } : {}), ...extra })}`;

  return (
    <>
      <nav className="mb-2 text-sm text-slate-500">
        <Link href={`/datasets/${encodeURIComponent(name)}`} className="hover:underline">
          {name}
        </Link>{" "}
        / solver results
      </nav>
      <PageHeader
        title="Solver results"
        description="Model solutions run against each record's demo and full tests. A record no model solves may be unsolvable as stated — or just hard; a record every model solves says nothing about its tests."
      />
      {can(actor, "imports:write") ? (
        <Card title="Import model outputs" className="mb-4">
          <SolutionImport dataset={name} onImport={importSolutionsAction} />
        </Card>
      ) : null}
      {latest ? (
        <Card title="Latest run" className="mb-4">
          <SolutionRunProgress key={latest.batchId} initial={latest} readProgress={solutionRunProgressAction} />
        </Card>
      ) : null}
      <Card title="pass@1 per model and language" className="mb-4">
        {models.length === 0 ? (
          <p className="text-sm text-slate-500">No solutions imported yet.</p>
        ) : (
          <>
            <p className="mb-2 text-xs text-slate-500">
              Solutions that pass both tests ÷ solutions that ran (one per record and model); hover a figure for its
              Wilson 95% interval. Solutions whose language cannot run here are not counted.
            </p>
            <PassAtOneTable models={models} />
          </>
        )}
      </Card>
      <Card
        title="Which models solve each record"
        actions={
          <div className="flex gap-3 text-sm">
            <Link href={path} className={query.unsolved ? "text-indigo-700 hover:underline" : "font-semibold"}>
              All
            </Link>
            <Link
              href={`${path}?unsolved=1`}
              className={query.unsolved ? "font-semibold" : "text-indigo-700 hover:underline"}
            >
              Solved by no model
            </Link>
          </div>
        }
      >
        <DataTable
          label="Records and the models that solve them"
          columns={[
            { label: "Line", numeric: true },
            { label: "Record" },
            { label: "Language" },
            { label: "Solved (k of n)", numeric: true },
            { label: "Solved by" },
          ]}
        >
          {page.rows.map((row) => (
            <tr key={row.recordId}>
              <td className="py-2 pr-3 text-right tabular-nums text-slate-500">{row.line}</td>
              <td className="py-2 pr-3">
                <Link href={`/records/${row.recordId}`} className="text-indigo-700 hover:underline">
                  {recordTitle(row.question)}
                </Link>
              </td>
              <td className="py-2 pr-3">{languageName(row.language)}</td>
              <td className="py-2 pr-3 text-right tabular-nums">
                <Badge tone={row.triedBy.length === 0 ? "gray" : row.solvedBy.length === 0 ? "red" : "green"}>
                  {row.solvedBy.length} of {row.triedBy.length}
                </Badge>
              </td>
              <td className="py-2 pr-3 text-slate-600">{row.solvedBy.join(", ") || "—"}</td>
            </tr>
          ))}
        </DataTable>
        {page.rows.length === 0 ? <p className="mt-2 text-sm text-slate-500">No records here.</p> : null}
        {page.nextCursor ? (
          <p className="mt-3 text-sm">
            <Link href={pageHref({ cursor: String(page.nextCursor) })} className="text-indigo-700 hover:underline">
              Next page
            </Link>
          </p>
        ) : null}
      </Card>
    </>
  );
}
