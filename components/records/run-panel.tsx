"use client";

import { useCallback, useEffect, useState } from "react";

import { Badge, Button, ErrorNote } from "@/components/ui/primitives";

type Run = { id: string; kind: "DEMO" | "FULL" | "SCRATCH"; outcome: string; exitCode: number | null; signal: string | null; timeMs: number; stdout: string; stderr: string; compileOutput: string | null; limit: string | null; stdoutTruncated: boolean; stderrTruncated: boolean; program: string; backend: string };

export function OutcomeBadge({ outcome }: { outcome: string }) {
  return <Badge tone={outcome === "PASSED" ? "green" : outcome === "TIME_LIMIT_EXCEEDED" ? "amber" : "red"}>{outcome}</Badge>;
}

/** Runs the canonical solution against the record's tests in the sandbox and shows what happened. Keyboard: R runs both. */
export function RunPanel({ recordId, canRun, unavailableReason }: { recordId: number; canRun: boolean; unavailableReason?: string }) {
  const [runs, setRuns] = useState<Run[]>([]);
  const [error, setError] = useState<string>();
  const [running, setRunning] = useState<string | null>(null);

  const run = useCallback(
    async (kind: "demo" | "full" | "both") => {
      setRunning(kind);
      setError(undefined);
      try {
        const response = await fetch(`/api/v1/records/${recordId}/runs`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ kind }) });
        const body = (await response.json()) as { runs?: Run[]; error?: { message: string } };
        if (!response.ok || !body.runs) setError(body.error?.message ?? `The run failed (${response.status}).`);
        else setRuns(body.runs);
      } catch {
        setError("The server could not be reached. Try again.");
      } finally {
        setRunning(null);
      }
    },
    [recordId],
  );

  useEffect(() => {
    if (!canRun || unavailableReason) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key.toLowerCase() !== "r" || event.metaKey || event.ctrlKey || event.altKey || target.closest("input, textarea, select, .monaco-editor")) return;
      event.preventDefault();
      void run("both");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [canRun, unavailableReason, run]);

  if (!canRun) return <p className="text-sm text-slate-500">Your role cannot run code.</p>;
  if (unavailableReason) {
    return (
      <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
        This language cannot run here: {unavailableReason}. An admin can install its toolchain (<code>npm run sandbox:install</code>) or route it to an acb sandbox (VERITY_SANDBOX_ROUTES).
      </p>
    );
  }
  return (
    <div className="space-y-3 text-sm">
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => run("demo")} disabled={running !== null} variant="secondary">
          Run demo
        </Button>
        <Button onClick={() => run("full")} disabled={running !== null} variant="secondary">
          Run full
        </Button>
        <Button onClick={() => run("both")} disabled={running !== null} title="Shortcut: R">
          {running ? "Running…" : "Run both (R)"}
        </Button>
      </div>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {runs.map((result) => (
        <div key={result.id} className="space-y-2 rounded-md p-3 ring-1 ring-slate-200" data-testid="run-result">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{result.kind === "DEMO" ? "Demo test" : result.kind === "FULL" ? "Full test" : "Scratch"}</span>
            <OutcomeBadge outcome={result.outcome} />
            <span className="text-slate-600">
              exit {result.exitCode ?? "—"}
              {result.signal ? ` (${result.signal})` : ""} · {Math.round(result.timeMs)} ms · {result.backend}
              {result.limit ? ` · ${result.limit} limit` : ""}
            </span>
          </div>
          {result.compileOutput ? <Output label="Compiler" text={result.compileOutput} /> : null}
          <Output label={`stdout${result.stdoutTruncated ? " (truncated at 1 MiB)" : ""}`} text={result.stdout} />
          <Output label={`stderr${result.stderrTruncated ? " (truncated at 1 MiB)" : ""}`} text={result.stderr} />
          <details>
            <summary className="cursor-pointer text-slate-700">Program that ran</summary>
            <pre className="mt-1 max-h-72 overflow-auto rounded bg-slate-900 p-2 font-mono text-xs text-slate-100">{result.program}</pre>
          </details>
        </div>
      ))}
    </div>
  );
}

function Output({ label, text }: { label: string; text: string }) {
  return (
    <div>
      <div className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</div>
      <pre className="mt-0.5 max-h-48 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap ring-1 ring-slate-200">{text || "(empty)"}</pre>
    </div>
  );
}
