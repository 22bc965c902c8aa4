import { RunResult } from "@/components/records/run-result";
import { Card } from "@/components/ui/primitives";
import { ENVIRONMENT_FAILURE, outcomeWords, SANDBOX_ERROR, UNAVAILABLE } from "@/lib/records/verification";
import { describeMissing, type EnvironmentFailureKind } from "@/lib/runs/environment-failure";
import type { VerificationRun } from "@/lib/runs/types";

/**
 * The newest batch verification of a record, run by run: outcome, exit code, signal, compile and run
 * times, backend, toolchain and the start and end of each output, so a time limit can be told from a
 * failing assertion.
 */
export function VerificationCard({ runs, outcome }: { runs: VerificationRun[]; outcome: string | null }) {
  const ran = runs.filter((run) => run.backend !== "none");
  const missing = ran.find((run) => run.environmentKind !== null);
  return (
    <Card title="Batch verification">
      <div className="space-y-3" data-testid="verification-runs">
        {outcome === UNAVAILABLE ? (
          <p className="text-sm text-slate-700" data-testid="verification-unavailable">
            Unavailable here: this language has no toolchain in the sandbox (and no acb route), so it was not run. This
            is not a failure.
          </p>
        ) : null}
        {outcome === SANDBOX_ERROR ? (
          <p className="text-sm text-slate-700" data-testid="verification-sandbox-error">
            Not run (sandbox error): the sandbox failed before the program started, so nothing is known about this
            record yet. It is verified again by the next batch once the sandbox works.
          </p>
        ) : null}
        {outcome === ENVIRONMENT_FAILURE ? (
          <p className="text-sm text-slate-700" data-testid="verification-environment">
            Not run: environment. The run needs{" "}
            {missing
              ? describeMissing({
                  kind: missing.environmentKind as EnvironmentFailureKind,
                  missing: missing.environmentMissing ?? "",
                })
              : "a dependency"}
            , which is not installed in the sandbox, so nothing is known about the record itself. Install it into the
            sandbox (docs/sandbox.md) and verify again.
          </p>
        ) : null}
        {ran.length === 0 && outcome !== UNAVAILABLE && outcome !== SANDBOX_ERROR ? (
          <p className="text-sm text-slate-500">Not verified yet{outcome ? ` (${outcomeWords(outcome)})` : ""}.</p>
        ) : null}
        {ran.map((run) => (
          <RunResult
            key={run.id}
            result={run}
            title={`${run.kind === "DEMO" ? "Demo" : "Full"} test · ${run.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC`}
            testId="verification-run"
          />
        ))}
      </div>
    </Card>
  );
}
