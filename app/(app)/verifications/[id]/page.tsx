import Link from "next/link";

import { FailureCauses } from "@/components/records/failure-causes";
import { OutcomeBadge, runConditions } from "@/components/records/run-result";
import { Badge, Card, PageHeader } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import { INCONCLUSIVE, outcomeWords, SANDBOX_ERROR, UNAVAILABLE } from "@/lib/records/verification";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { describeMissing, type EnvironmentFailureKind } from "@/lib/runs/environment-failure";
import { listBatchEnvironmentFailures, listBatchRuns } from "@/lib/server/runs/runs";
import { pathSegment } from "@/lib/server/http";
import { getVerificationProgress } from "@/lib/server/verification/batches";
import { orNotFound } from "@/lib/server/not-found";
import { countOf } from "@/lib/format/count";
import { batchStateWord } from "@/lib/jobs/batch-state";

export const metadata = { title: "Verification" };
export const dynamic = "force-dynamic";

export default async function VerificationPage({ params }: { params: Promise<{ id: string }> }) {
  const batchId = pathSegment((await params).id);
  const actor = await requirePageActor("records:read", `/verifications/${encodeURIComponent(batchId)}`);
  const progress = await orNotFound(getVerificationProgress({ actor, batchId }));
  const [runs, environmentGroups] = await Promise.all([
    listBatchRuns({ actor, batchId }),
    listBatchEnvironmentFailures({ actor, batchId }),
  ]);
  const byOutcome = new Map<string, number>();
  for (const run of runs) byOutcome.set(run.outcome, (byOutcome.get(run.outcome) ?? 0) + 1);

  return (
    <>
      <nav className="mb-2 text-sm text-slate-500">
        <Link href={`/datasets/${encodeURIComponent(progress.dataset)}`} className="hover:underline">
          {progress.dataset}
        </Link>{" "}
        / verification
      </nav>
      <PageHeader
        title={`Verification ${batchStateWord(progress)}`}
        description={`${progress.done}/${countOf(progress.total, "record")} · ${progress.executableValid} pass · ${progress.failed} fail · ${progress.environmentFailed} not run: environment · ${progress.unavailable} unavailable here${progress.inconclusive ? ` · ${progress.inconclusive} inconclusive (busy machine)` : ""}${progress.errored ? ` · ${progress.errored} errored` : ""}${progress.repeat ? ` · ${progress.flaky} flaky (tests run ${progress.repeat} times each)` : ""}`}
      />
      {progress.stopReason ? (
        <p
          className="mb-4 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800"
          data-testid="batch-stopped"
        >
          {progress.stopReason}
        </p>
      ) : null}
      {progress.repeat > 0 ? (
        <p className="mb-2 text-sm" data-testid="batch-flaky">
          <Badge tone="amber">flaky: {progress.flaky}</Badge>{" "}
          <Link
            href={`/datasets/${encodeURIComponent(progress.dataset)}?executable=flaky`}
            className="text-indigo-700 hover:underline"
          >
            Show the flaky records
          </Link>
        </p>
      ) : null}
      <FailureCauses
        dataset={progress.dataset}
        failed={progress.failed}
        environmentFailed={progress.environmentFailed}
        unavailable={progress.unavailable}
        errored={progress.errored}
        groups={environmentGroups}
      />
      <div className="mb-4 flex flex-wrap gap-2 text-sm" data-testid="batch-outcomes">
        {[...byOutcome].map(([outcome, count]) => (
          <Badge
            key={outcome}
            tone={
              outcome === "PASSED"
                ? "green"
                : outcome === UNAVAILABLE || outcome === SANDBOX_ERROR || outcome === INCONCLUSIVE
                  ? "amber"
                  : "red"
            }
          >
            {outcomeWords(outcome)}: {count} {count === 1 ? "run" : "runs"}
          </Badge>
        ))}
      </div>
      <Card>
        <table className="w-full text-sm" data-testid="batch-runs">
          <thead className="text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1">Record</th>
              <th className="py-1">Language</th>
              <th className="py-1">Test</th>
              <th className="py-1">Outcome</th>
              <th className="py-1">Exit</th>
              <th className="py-1">Compile</th>
              <th className="py-1">Run</th>
              <th className="py-1">Waited · load</th>
              <th className="py-1">Backend · toolchain</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id} className="border-t border-slate-100">
                <td className="py-1.5">
                  <Link href={`/records/${run.recordId}`} className="text-indigo-700 hover:underline">
                    line {run.line}
                  </Link>
                </td>
                <td className="py-1.5">{languageName(run.language)}</td>
                <td className="py-1.5">{run.backend === "none" ? "—" : run.kind === "DEMO" ? "demo" : "full"}</td>
                <td className="py-1.5">
                  {run.outcome === UNAVAILABLE || run.outcome === SANDBOX_ERROR ? (
                    <Badge tone="amber">{outcomeWords(run.outcome)}</Badge>
                  ) : (
                    <OutcomeBadge outcome={run.outcome} />
                  )}
                  {run.verdictNote ? <p className="mt-1 max-w-md text-xs text-amber-800">{run.verdictNote}</p> : null}
                  {run.environmentKind ? (
                    <span className="ml-1 text-xs text-amber-800">
                      missing{" "}
                      {describeMissing({
                        kind: run.environmentKind as EnvironmentFailureKind,
                        missing: run.environmentMissing ?? "",
                      })}
                    </span>
                  ) : null}
                </td>
                <td className="py-1.5">
                  {run.backend === "none"
                    ? "—"
                    : `${run.exitCode ?? "—"}${run.signal ? ` (${run.signal})` : ""}${run.limit ? ` · ${run.limit} limit` : ""}`}
                </td>
                <td className="py-1.5">{run.compileMs != null ? `${run.compileMs} ms` : "—"}</td>
                <td className="py-1.5">{run.runMs != null ? `${run.runMs} ms` : "—"}</td>
                <td className="py-1.5 text-xs text-slate-600">{runConditions(run) ?? "—"}</td>
                <td className="py-1.5 text-xs text-slate-600">
                  {run.backend === "none" ? "—" : `${run.backend}${run.toolchain ? ` · ${run.toolchain}` : ""}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </>
  );
}
