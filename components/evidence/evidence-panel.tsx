import type { ReactNode } from "react";

import { ExecutableBadge } from "@/components/records/executable-badge";
import { Badge } from "@/components/ui/primitives";
import { type MutationEvidence, type RecordEvidence, strongestSurvivor } from "@/lib/evidence/types";
import { countOf } from "@/lib/format/count";

/** The score as a percentage, or a dash when nothing could be measured. */
function percent(score: number | null): string {
  return score === null ? "—" : `${Math.round(score * 100)}%`;
}

function Row({
  name,
  testId,
  isCompact,
  children,
}: {
  name: string;
  testId: string;
  isCompact: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`grid grid-cols-[7.5rem_1fr] gap-2 ${isCompact ? "py-0.5" : "py-1.5"}`} data-testid={testId}>
      <dt className="font-medium text-slate-700">{name}</dt>
      <dd className="min-w-0 text-slate-700">{children}</dd>
    </div>
  );
}

const notCollected = <span className="text-slate-500">not collected</span>;

function TestStrength({ mutation }: { mutation: MutationEvidence }) {
  if (mutation.notApplicable) return <span className="text-slate-500">not measured: {mutation.notApplicable}</span>;
  if (mutation.viable === 0)
    return (
      <span className="text-slate-500">
        not measured: none of the {countOf(mutation.generated, "mutant")} built and finished in time
      </span>
    );
  const survivor = strongestSurvivor(mutation.survivors);
  const testName = survivor?.acceptedBy.includes("full") ? "full" : "demo";
  return (
    <div className="space-y-1">
      <p>
        <Badge tone={mutation.realScore !== null && mutation.realScore < 0.5 ? "amber" : "green"}>
          {percent(mutation.score)}
        </Badge>{" "}
        {mutation.killed} of {countOf(mutation.viable, "mutant")} rejected · demo {percent(mutation.byTest.demo.score)},
        full {percent(mutation.byTest.full.score)}
        {mutation.stillborn > 0 ? ` · ${mutation.stillborn} stillborn (not counted)` : ""}
      </p>
      {mutation.likelyEquivalent > 0 ? (
        <p data-testid="likely-equivalent">
          {countOf(mutation.likelyEquivalent, "survivor")} likely equivalent to the solution: over the real survivors
          the score is {percent(mutation.realScore)}, which is what the weak-tests filter reads.
        </p>
      ) : null}
      {survivor ? (
        <div data-testid="strongest-survivor">
          <p>
            The {testName} test accepts <code className="font-mono">{survivor.original}</code> →{" "}
            <code className="font-mono">{survivor.replacement}</code> on line {survivor.line}:
          </p>
          <pre className="mt-0.5 overflow-x-auto rounded bg-slate-50 px-2 py-1 font-mono text-xs">
            <span className="block text-red-700">- {survivor.before}</span>
            <span className="block text-emerald-700">+ {survivor.after}</span>
          </pre>
          {survivor.equivalentReason ? (
            <p className="text-xs text-slate-500">Likely equivalent: {survivor.equivalentReason}.</p>
          ) : null}
          {mutation.survivors.length > 1 ? (
            <p className="text-xs text-slate-500">{mutation.survivors.length - 1} more surviving.</p>
          ) : null}
        </div>
      ) : null}
      {mutation.switching ? <Switching switching={mutation.switching} /> : null}
      <p className="text-xs text-slate-500">
        A surviving mutant may be equivalent to the solution (it behaves the same on every input), so no test could
        reject it: a low score points at weak tests, it does not prove them weak.
      </p>
    </div>
  );
}

/** How a compiled language's mutants ran: one compile per test for the switched ones, and why others ran alone. */
function Switching({ switching }: { switching: NonNullable<MutationEvidence["switching"]> }) {
  return (
    <div className="text-xs text-slate-500" data-testid="mutant-switching">
      <p>
        {countOf(switching.switched, "mutant")} compiled once per test in one switched program
        {switching.alone.length > 0 ? "; compiled on their own:" : "."}
      </p>
      {switching.alone.length > 0 ? (
        <ul className="ml-4 list-disc">
          {switching.alone.map(({ reason, mutants }) => (
            <li key={reason}>
              {mutants} — {reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * Every automatic signal about a record in one place — execution, stability, test strength,
 * solvers and the critic — each saying "not collected" until it is, and "hidden" where the
 * campaign keeps it from the annotator before the first label.
 */
export function EvidencePanel({
  executableValid,
  verificationOutcome,
  flaky = null,
  evidence,
  critic,
  isExecutionHidden = false,
  isEvidenceHidden = false,
  isCriticHidden = false,
  isCompact = false,
}: {
  executableValid: boolean | null;
  verificationOutcome: string | null;
  flaky?: boolean | null;
  evidence: RecordEvidence;
  critic: { overallPass: boolean | null; failedRules: string[] } | null;
  isExecutionHidden?: boolean;
  isEvidenceHidden?: boolean;
  isCriticHidden?: boolean;
  /** Tight rows that scroll inside the panel past 40% of its column: the workspace's, under the code. */
  isCompact?: boolean;
}) {
  const hidden = <span className="text-slate-500">hidden until your first label</span>;
  return (
    <section
      aria-label="Evidence"
      className={`rounded-lg bg-white text-sm shadow-sm ring-1 ring-slate-200 ${isCompact ? "shrink-0 overflow-auto px-3 py-2 lg:max-h-[40%]" : "p-3"}`}
      data-testid="evidence-panel"
    >
      <h2 className="mb-1 text-sm font-semibold text-slate-800">Evidence</h2>
      <dl className="divide-y divide-slate-100">
        <Row isCompact={isCompact} name="Execution" testId="evidence-execution">
          {isExecutionHidden ? (
            hidden
          ) : (
            <ExecutableBadge
              value={executableValid}
              outcome={verificationOutcome}
              flaky={isEvidenceHidden ? null : flaky}
            />
          )}
        </Row>
        <Row isCompact={isCompact} name="Stability" testId="evidence-stability">
          {isEvidenceHidden ? (
            hidden
          ) : evidence.flaky === null ? (
            notCollected
          ) : evidence.flaky ? (
            <>
              <Badge tone="red">flaky</Badge> repeated runs gave different outcomes
            </>
          ) : (
            <>
              <Badge tone="green">stable</Badge> repeated runs gave the same outcome
            </>
          )}
        </Row>
        <Row isCompact={isCompact} name="Test strength" testId="evidence-mutation">
          {isEvidenceHidden ? hidden : evidence.mutation ? <TestStrength mutation={evidence.mutation} /> : notCollected}
        </Row>
        <Row isCompact={isCompact} name="Solvers" testId="evidence-solvers">
          {isEvidenceHidden ? (
            hidden
          ) : evidence.solvers ? (
            <span
              title={evidence.solvers.byModel
                .map((result) => `${result.model}: ${result.solved ? "solves it" : "fails"}`)
                .join("\n")}
            >
              <Badge tone={evidence.solvers.solved === 0 ? "red" : "green"}>
                {evidence.solvers.solved} of {evidence.solvers.total}
              </Badge>{" "}
              {evidence.solvers.solved === 0
                ? "no model solves it"
                : `solved by ${evidence.solvers.byModel
                    .filter((result) => result.solved)
                    .map((result) => result.model)
                    .join(", ")}`}
            </span>
          ) : (
            notCollected
          )}
        </Row>
        <Row isCompact={isCompact} name="Critic" testId="evidence-critic">
          {isCriticHidden ? (
            hidden
          ) : !critic || critic.overallPass === null ? (
            <span className="text-slate-500">no verdict</span>
          ) : critic.overallPass ? (
            <Badge tone="green">passes</Badge>
          ) : (
            <>
              <Badge tone="red">fails</Badge>
              {critic.failedRules.length > 0 ? ` ${critic.failedRules.join(", ")}` : ""}
            </>
          )}
        </Row>
      </dl>
    </section>
  );
}
