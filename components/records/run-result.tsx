import { Badge } from "@/components/ui/primitives";
import type { z } from "zod";

import type { Action } from "@/lib/actions/result";
import { INCONCLUSIVE } from "@/lib/records/verification";
import type { runRecordSchema } from "@/lib/validation/runs";

export function OutcomeBadge({ outcome }: { outcome: string }) {
  const tone =
    outcome === "PASSED" ? "green" : outcome === "TIME_LIMIT_EXCEEDED" || outcome === INCONCLUSIVE ? "amber" : "red";
  return <Badge tone={tone}>{outcome}</Badge>;
}

/** "waited 2.1 s for a slot · load 6.3" when the run recorded them. */
export function runConditions(run: { waitMs?: number | null; loadAverage?: number | null }): string | null {
  const parts = [
    run.waitMs != null ? `waited ${(run.waitMs / 1000).toFixed(1)} s for a slot` : null,
    run.loadAverage != null ? `load ${run.loadAverage}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : null;
}

export type RunView = {
  id: string;
  kind: string;
  outcome: string;
  exitCode: number | null;
  signal: string | null;
  timeMs: number;
  stdout: string;
  stderr: string;
  compileOutput: string | null;
  limit: string | null;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  program: string;
  backend: string;
  compileMs?: number | null;
  runMs?: number | null;
  toolchain?: string | null;
  waitMs?: number | null;
  loadAverage?: number | null;
  verdictNote?: string | null;
  /** What a stored run failed for want of (lib/runs/environment-failure.ts). */
  environmentKind?: string | null;
  environmentMissing?: string | null;
  /** The dataset environment version the run had mounted (null: none). */
  environmentVersion?: number | null;
};

/** The record run action a page hands the run panels (app/(app)/records/actions.ts): canonical runs, or a scratch copy. */
export type RunRecordAction = Action<z.input<typeof runRecordSchema>, { runs: RunView[] }>;

/** "compile 812 ms · run 40 ms" when the steps were timed apart, else the total. */
function timing(result: RunView): string {
  if (result.compileMs == null && result.runMs == null) return `${Math.round(result.timeMs)} ms`;
  const parts = [
    result.compileMs != null ? `compile ${result.compileMs} ms` : null,
    result.runMs != null ? `run ${result.runMs} ms` : null,
  ];
  return parts.filter(Boolean).join(" · ");
}

/** One sandbox run as the run panel shows it: outcome, exit, time, outputs and the program that ran. */
export function RunResult({
  result,
  title,
  testId = "run-result",
}: {
  result: RunView;
  title: string;
  testId?: string;
}) {
  return (
    <div className="space-y-2 rounded-md p-3 text-sm ring-1 ring-slate-200" data-testid={testId}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{title}</span>
        <OutcomeBadge outcome={result.outcome} />
        <span className="text-slate-600">
          exit {result.exitCode ?? "—"}
          {result.signal ? ` (${result.signal})` : ""} · {timing(result)} · {result.backend}
          {result.toolchain ? ` · ${result.toolchain}` : ""}
          {result.environmentVersion ? ` · dataset environment v${result.environmentVersion}` : ""}
          {result.limit ? ` · ${result.limit} limit` : ""}
          {runConditions(result) ? ` · ${runConditions(result)}` : ""}
        </span>
      </div>
      {result.verdictNote ? (
        <p className="rounded bg-amber-50 p-2 text-amber-900" data-testid="verdict-note">
          {result.verdictNote}
        </p>
      ) : null}
      {result.environmentKind ? (
        <p className="text-amber-800" data-testid="run-environment">
          Missing {result.environmentKind} <code>{result.environmentMissing}</code>: the environment&rsquo;s failure,
          not the record&rsquo;s.
        </p>
      ) : null}
      {result.compileOutput ? <Output label="Compiler" text={result.compileOutput} /> : null}
      <Output
        label={`stdout${result.stdoutTruncated ? " (truncated: start and end kept)" : ""}`}
        text={result.stdout}
      />
      <Output
        label={`stderr${result.stderrTruncated ? " (truncated: start and end kept)" : ""}`}
        text={result.stderr}
      />
      <details>
        <summary className="cursor-pointer text-slate-700">Program that ran</summary>
        <pre className="mt-1 max-h-72 overflow-auto rounded bg-slate-900 p-2 font-mono text-xs text-slate-100">
          {result.program}
        </pre>
      </details>
    </div>
  );
}

function Output({ label, text }: { label: string; text: string }) {
  return (
    <div>
      <div className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</div>
      <pre className="mt-0.5 max-h-48 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap ring-1 ring-slate-200">
        {text || "(empty)"}
      </pre>
    </div>
  );
}
