import Link from "next/link";

import { JobsTable } from "@/components/jobs/jobs-table";
import { RefreshWhileRunning } from "@/components/jobs/refresh-while-running";
import { Card, ErrorNote, PageHeader, Select } from "@/components/ui/primitives";
import { JOB_KIND_LABELS, JOB_KINDS, JOB_STATUSES } from "@/lib/jobs/types";
import { can } from "@/lib/server/auth/permissions";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { listJobs } from "@/lib/server/jobs/list-jobs";
import { jobQuerySchema } from "@/lib/validation/jobs";

import { controlJobAction } from "./actions";

export const metadata = { title: "Jobs" };
export const dynamic = "force-dynamic";

export default async function JobsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const actor = await requirePageActor("records:read", "/jobs");
  const raw = Object.fromEntries(
    Object.entries(await searchParams).flatMap(([key, value]) => (typeof value === "string" ? [[key, value]] : [])),
  );
  const parsed = jobQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : jobQuerySchema.parse({});
  const { jobs, nextCursor } = await listJobs({ actor, query });
  const filters = new URLSearchParams({
    ...(query.kind ? { kind: query.kind } : {}),
    ...(query.status ? { status: query.status.toLowerCase() } : {}),
  });
  const olderLink = nextCursor
    ? `/jobs?${new URLSearchParams({ ...Object.fromEntries(filters), cursor: nextCursor })}`
    : null;
  const kinds = JOB_KINDS.filter((kind) => kind !== "import" || can(actor, "imports:write"))
    .filter((kind) => kind !== "critic" || can(actor, "critics:read"))
    .filter((kind) => kind !== "release" || can(actor, "releases:read"));

  return (
    <>
      <RefreshWhileRunning isRunning={jobs.some((job) => job.status === "RUNNING")} everyMs={2000} />
      <PageHeader
        title="Jobs"
        description="Every long piece of work — imports, verification, evidence, solution runs, critic runs — with its progress, rate and time left, who started it and where its result is."
      />
      <Card
        title="All jobs, newest first"
        actions={
          <form className="flex items-center gap-2 text-xs" action="/jobs" aria-label="Filter jobs">
            <Select name="kind" defaultValue={query.kind ?? ""} aria-label="Kind">
              <option value="">every kind</option>
              {kinds.map((kind) => (
                <option key={kind} value={kind}>
                  {JOB_KIND_LABELS[kind]}
                </option>
              ))}
            </Select>
            <Select name="status" defaultValue={query.status?.toLowerCase() ?? ""} aria-label="Status">
              <option value="">any status</option>
              {JOB_STATUSES.map((status) => (
                <option key={status} value={status.toLowerCase()}>
                  {status.toLowerCase()}
                </option>
              ))}
            </Select>
            <button type="submit" className="text-indigo-700 hover:underline">
              Filter
            </button>
          </form>
        }
      >
        {parsed.success ? null : <ErrorNote>Some filters were not understood and are not applied.</ErrorNote>}
        {jobs.length === 0 ? (
          <div className="space-y-2 text-sm text-slate-600" data-testid="jobs-empty">
            <p>
              {query.cursor
                ? "No older jobs."
                : query.kind || query.status
                  ? "No job matches these filters."
                  : "No jobs yet."}
            </p>
            <p>
              A job starts when someone{can(actor, "imports:write") ? " imports records (Import)," : ""} verifies a
              dataset or collects its evidence (a dataset&apos;s page), imports solutions to run (a dataset&apos;s
              Solvers page){can(actor, "critics:read") ? " or runs a critic (Critics)" : ""}.
            </p>
          </div>
        ) : (
          <JobsTable jobs={jobs} controlJob={controlJobAction} />
        )}
        <nav className="mt-4 flex gap-4 text-sm" aria-label="Pages">
          {query.cursor ? (
            <Link href={`/jobs${filters.size ? `?${filters}` : ""}`} className="text-indigo-700 hover:underline">
              ← Newest
            </Link>
          ) : null}
          {olderLink ? (
            <Link href={olderLink} className="text-indigo-700 hover:underline">
              Older →
            </Link>
          ) : null}
        </nav>
      </Card>
    </>
  );
}
