"use client";

import { useRef } from "react";

import { OutcomeBadge, type RunView } from "@/components/records/run-result";
import { Button } from "@/components/ui/primitives";
import type { SourceLine } from "@/lib/runs/failure-line";

/** How a run ended, in words: a time-out names the time it was stopped at. */
function runSummary(run: Pick<RunView, "outcome" | "exitCode" | "signal" | "timeMs" | "limit">): string {
  if (run.outcome === "TIME_LIMIT_EXCEEDED" || run.limit === "time")
    return `stopped after ${Math.max(1, Math.round(run.timeMs / 1000))} s (time limit)`;
  const exit = run.exitCode === null ? "no exit code" : `exit ${run.exitCode}`;
  return `${exit}${run.signal ? ` (${run.signal})` : ""}${run.limit ? ` · ${run.limit} limit` : ""} · ${Math.round(run.timeMs)} ms`;
}

const PART_NAMES = { solution: "Solution", DEMO: "Demo test", FULL: "Full test" } as const;

/**
 * One test's latest run on one line: outcome, exit code and time, the failing line it points at
 * (a button that marks it in the code), its output on demand, and the spliced program in a dialog.
 */
export function RunRow({
  run,
  failing,
  onShowLine,
}: {
  run: RunView;
  failing: { source: SourceLine; programLine: number } | null;
  onShowLine: () => void;
}) {
  const program = useRef<HTMLDialogElement>(null);
  const name = run.kind === "DEMO" ? "Demo test" : "Full test";
  const where = failing
    ? `${failing.source.part === "solution" ? PART_NAMES.solution : PART_NAMES[run.kind as "DEMO" | "FULL"]}, line ${failing.source.line}`
    : null;
  const output = [
    run.compileOutput ? `── compiler ──\n${run.compileOutput}` : "",
    run.stdout ? `── stdout${run.stdoutTruncated ? " (truncated)" : ""} ──\n${run.stdout}` : "",
    run.stderr ? `── stderr${run.stderrTruncated ? " (truncated)" : ""} ──\n${run.stderr}` : "",
  ]
    .filter(Boolean)
    .join("\n");
  const programLines = run.program.split("\n");

  return (
    <li className="space-y-1" data-testid={`run-row-${run.kind.toLowerCase()}`}>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="w-16 shrink-0 font-medium">{name}</span>
        <OutcomeBadge outcome={run.outcome} />
        <span className="text-xs text-slate-600">{runSummary(run)}</span>
        {where ? (
          <button
            type="button"
            onClick={onShowLine}
            className="text-xs font-medium text-red-800 underline decoration-dotted hover:text-red-900"
            title="Mark this line in the code"
          >
            {where}
          </button>
        ) : null}
        <Button
          variant="secondary"
          className="ml-auto px-1.5 py-0 text-xs"
          onClick={() => program.current?.showModal()}
          aria-label="Show the program that ran"
          title={`The spliced program that ran for the ${name.toLowerCase()}`}
        >
          Program
        </Button>
      </div>
      {output ? (
        <details>
          <summary className="cursor-pointer text-xs text-slate-600">Output</summary>
          <pre className="mt-1 max-h-40 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap ring-1 ring-slate-200">
            {output}
          </pre>
        </details>
      ) : null}
      <dialog
        ref={program}
        aria-label={`Program that ran (${name.toLowerCase()})`}
        className="m-auto max-h-[90vh] w-[min(64rem,96vw)] rounded-lg p-0 shadow-xl backdrop:bg-slate-900/50"
      >
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2">
          <h2 className="text-sm font-semibold">Program that ran ({name.toLowerCase()})</h2>
          <form method="dialog">
            <Button type="submit" variant="secondary" className="px-2 py-0.5 text-xs">
              Close (Esc)
            </Button>
          </form>
        </div>
        <pre className="max-h-[80vh] overflow-auto p-3 font-mono text-xs leading-5">
          {programLines.map((line, index) => (
            <div key={index} className={failing?.programLine === index + 1 ? "failing-line" : undefined}>
              <span className="mr-3 inline-block w-10 text-right text-slate-400 select-none">{index + 1}</span>
              {line}
            </div>
          ))}
        </pre>
      </dialog>
    </li>
  );
}
