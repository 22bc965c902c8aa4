"use client";

import { useCallback, useState } from "react";

import type { RunView } from "@/components/records/run-result";
import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { failingSource, firstFailingLine, toHighlight } from "@/lib/runs/failure-line";
import { runRecordSchema } from "@/lib/validation/runs";

import type { RunRecordAction } from "@/components/records/run-result";
import { RunRow } from "./run-row";
import { useHotkeys } from "./use-hotkeys";
import { useWorkspace } from "./workspace-context";

type Code = { solution: string; demo: string; full: string };

/**
 * The latest run of each test (demo, full) of the canonical solution, one line each, and the
 * buttons to run them again. R runs both. A failing line is marked in the code pane (a stored
 * run's from the start: the page opens the workspace on it). A run refused because the language
 * cannot run says so once: the note above the rows, not again as the run's error.
 */
export function LatestRun({
  recordId,
  code,
  initialRuns,
  canRun,
  unavailableNote,
  onRun,
}: {
  recordId: number;
  code: Code;
  initialRuns: RunView[];
  canRun: boolean;
  unavailableNote?: string;
  onRun: RunRecordAction;
}) {
  const { setHighlight } = useWorkspace();
  const [runs, setRuns] = useState(initialRuns);
  const { submit, isPending, message: error } = useAction();
  // The page's "cannot run" note was true when it was rendered; a run that works proves it stale.
  const [hasRunWorked, setRunWorked] = useState(false);

  const run = useCallback(
    async (kind: "demo" | "full" | "both") => {
      const result = await submit(runRecordSchema, { recordId, kind }, onRun);
      if (!result.ok) return;
      const fresh = result.data.runs;
      setRunWorked(true);
      setRuns((current) => [...fresh, ...current.filter((old) => !fresh.some((next) => next.kind === old.kind))]);
      setHighlight(firstFailingLine(fresh, code));
    },
    [code, onRun, recordId, submit, setHighlight],
  );
  useHotkeys({ r: () => void run("both") }, canRun);

  const rows = (["DEMO", "FULL"] as const)
    .map((kind) => runs.find((entry) => entry.kind === kind))
    .filter((entry) => entry !== undefined);
  return (
    <section
      aria-label="Latest run"
      className="space-y-2 rounded-lg bg-white p-3 text-sm shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="font-semibold text-slate-800">Latest run</h2>
        {canRun ? (
          <div className="ml-auto flex gap-1.5">
            <Button
              variant="secondary"
              className="px-2 py-0.5 text-xs"
              onClick={() => run("demo")}
              disabled={isPending}
            >
              Demo
            </Button>
            <Button
              variant="secondary"
              className="px-2 py-0.5 text-xs"
              onClick={() => run("full")}
              disabled={isPending}
            >
              Full
            </Button>
            <Button
              className="px-2 py-0.5 text-xs"
              onClick={() => run("both")}
              disabled={isPending}
              title="Shortcut: R"
            >
              {isPending ? "Running…" : "Run both (R)"}
            </Button>
          </div>
        ) : null}
      </div>
      {!canRun ? (
        <p className="text-slate-500">Your role cannot run code.</p>
      ) : unavailableNote && !hasRunWorked ? (
        <p className="rounded-md bg-amber-50 px-2 py-1 text-amber-900 ring-1 ring-amber-200">{unavailableNote}</p>
      ) : null}
      {error && !(error === unavailableNote && !hasRunWorked) ? <ErrorNote>{error}</ErrorNote> : null}
      {rows.length === 0 && canRun ? (
        <p className="text-slate-500">Not run yet. R runs the canonical solution against both tests.</p>
      ) : null}
      {rows.length > 0 ? (
        <ul className="space-y-1.5" aria-busy={isPending}>
          {rows.map((result) => {
            const failing = failingSource(result, code);
            return (
              <RunRow
                key={result.id}
                run={result}
                failing={failing}
                onShowLine={() => failing && setHighlight(toHighlight(failing.source, result.kind))}
              />
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
