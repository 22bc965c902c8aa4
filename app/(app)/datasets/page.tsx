import Link from "next/link";

import { Card, PageHeader } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import { can } from "@/lib/server/auth/permissions";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { listDatasets } from "@/lib/server/records/records";
import { countOf } from "@/lib/format/count";

export const metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  const actor = await requirePageActor("records:read", "/datasets");
  const datasets = await listDatasets({ actor });
  return (
    <>
      <PageHeader
        title="Datasets"
        description="Generated benchmark records, as imported. Open one to browse and filter its records."
        actions={
          can(actor, "imports:write") ? (
            <Link
              href="/admin/import"
              className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500"
            >
              Import a dataset
            </Link>
          ) : null
        }
      />
      {datasets.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-600">
            No datasets yet.
            {can(actor, "imports:write")
              ? " Import a JSONL file to get started."
              : " An admin has to import one first."}
          </p>
        </Card>
      ) : (
        <div className="grid gap-4 md:grid-cols-2">
          {datasets.map((dataset) => (
            <Card key={dataset.id}>
              <Link
                href={`/datasets/${encodeURIComponent(dataset.name)}`}
                className="text-base font-semibold text-indigo-700 hover:underline"
              >
                {dataset.name}
              </Link>
              <p className="mt-1 text-sm text-slate-600">
                {countOf(dataset.records, "record")} in {countOf(Object.keys(dataset.byLanguage).length, "language")} ·
                imported {dataset.createdAt.toISOString().slice(0, 10)}
              </p>
              <ul className="mt-3 flex flex-wrap gap-1.5">
                {Object.entries(dataset.byLanguage)
                  .sort(([, a], [, b]) => b - a)
                  .map(([language, count]) => (
                    <li key={language} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                      {languageName(language)} {count}
                    </li>
                  ))}
              </ul>
            </Card>
          ))}
        </div>
      )}
    </>
  );
}
