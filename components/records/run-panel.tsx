"use client";

import { useCallback, useEffect, useState } from "react";

import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { runRecordSchema } from "@/lib/validation/runs";

import { RunResult, type RunRecordAction, type RunView } from "./run-result";

/**
 * Runs the canonical solution against the record's tests in the sandbox and shows what happened.
 * Keyboard: R runs both. When the language could not run a moment ago, a note says so, but Run
 * stays: the server checks again on every run, so a fixed sandbox works without a reload.
 */
export function RunPanel({
  recordId,
  canRun,
  unavailableNote,
  onRun,
}: {
  recordId: number;
  canRun: boolean;
  unavailableNote?: string;
  onRun: RunRecordAction;
}) {
  const [runs, setRuns] = useState<RunView[]>([]);
  const [note, setNote] = useState(unavailableNote);
  const { submit, isPending, message: error } = useAction();

  const run = useCallback(
    async (kind: "demo" | "full" | "both") => {
      const result = await submit(runRecordSchema, { recordId, kind }, onRun);
      if (!result.ok) return;
      setRuns(result.data.runs);
      setNote(undefined);
    },
    [recordId, onRun, submit],
  );

  useEffect(() => {
    if (!canRun) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (
        event.key.toLowerCase() !== "r" ||
        event.metaKey ||
        event.ctrlKey ||
        event.altKey ||
        target.closest("input, textarea, select, .monaco-editor")
      )
        return;
      event.preventDefault();
      void run("both");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [canRun, run]);

  if (!canRun) return <p className="text-sm text-slate-500">Your role cannot run code.</p>;
  return (
    <div className="space-y-3 text-sm">
      {note ? <p className="rounded-md bg-amber-50 px-3 py-2 text-amber-900 ring-1 ring-amber-200">{note}</p> : null}
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => run("demo")} disabled={isPending} variant="secondary">
          Run demo
        </Button>
        <Button onClick={() => run("full")} disabled={isPending} variant="secondary">
          Run full
        </Button>
        <Button onClick={() => run("both")} disabled={isPending} title="Shortcut: R">
          {isPending ? "Running…" : "Run both (R)"}
        </Button>
      </div>
      {/* A run refused because the language cannot run repeats the note above: say it once. */}
      {error && error !== note ? <ErrorNote>{error}</ErrorNote> : null}
      {runs.map((result) => (
        <RunResult
          key={result.id}
          result={result}
          title={result.kind === "DEMO" ? "Demo test" : result.kind === "FULL" ? "Full test" : "Scratch"}
        />
      ))}
    </div>
  );
}
