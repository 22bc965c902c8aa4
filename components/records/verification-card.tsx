import { RunResult } from "@/components/records/run-result";
import { Card } from "@/components/ui/primitives";
import { outcomeWords, SANDBOX_ERROR, UNAVAILABLE } from "@/lib/records/verification";
import type { VerificationRun } from "@/lib/runs/types";

/**
 * The newest batch verification of a record, run by run: outcome, exit code, signal, compile and run
 * times, backend, toolchain and the start and end of each output, so a time limit can be told from a
 * failing assertion.
 */
export function VerificationCard({ runs, outcome }: { runs: VerificationRun[]; outcome: string | null }) {
  const ran = runs.filter((run) => run.backend !== "none");
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
