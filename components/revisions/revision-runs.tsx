"use client";

import { useState } from "react";

import { type RunRecordAction, RunResult, type RunView } from "@/components/records/run-result";
import { Button } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { useHotkeys } from "@/components/workspace/use-hotkeys";
import { runRecordSchema } from "@/lib/validation/runs";

/**
 * Runs a proposed revision's solution against its own demo and full tests (two scratch runs: the
 * record keeps its content until the revision is accepted), from its button or with R, and shows
 * each test's outcome as the workspace's latest run does.
 */
export function RevisionRuns({
  recordId,
  code,
  canRun,
  onRun,
}: {
  recordId: number;
  code: { solution: string; demo: string; full: string };
  canRun: boolean;
  onRun: RunRecordAction;
}) {
  const runner = useAction();
  const [runs, setRuns] = useState<{ test: "demo" | "full"; run: RunView }[]>([]);

  async function runBoth() {
    if (runner.isPending) return;
    const results: { test: "demo" | "full"; run: RunView }[] = [];
    for (const test of ["demo", "full"] as const) {
      const input = { recordId, kind: "scratch" as const, solution: code.solution, test: code[test] };
      const outcome = await runner.submit(runRecordSchema, input, onRun);
      if (!outcome.ok) return;
      results.push(...outcome.data.runs.map((run) => ({ test, run })));
      setRuns([...results]);
    }
  }
  useHotkeys({ r: () => void runBoth() }, canRun);

  return (
    <section aria-label="Latest run" className="space-y-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="font-semibold text-slate-800">Run the revised tests</h2>
        {canRun ? (
          <Button
            type="button"
            variant="secondary"
            className="ml-auto px-2 py-0.5 text-xs"
            onClick={() => void runBoth()}
            disabled={runner.isPending}
            title="Shortcut: R"
          >
            {runner.isPending ? "Running…" : "Run both (R)"}
          </Button>
        ) : null}
      </div>
      {runner.message ? <p className="text-red-700">{runner.message}</p> : null}
      {runs.length === 0 ? (
        <p className="text-slate-500">
          {canRun
            ? "Not run here yet: R runs the revised solution against the revised demo and full tests."
            : "You cannot run code in the sandbox."}
        </p>
      ) : (
        runs.map(({ test, run }) => (
          <RunResult
            key={run.id}
            result={run}
            title={test === "demo" ? "Revised demo test" : "Revised full test"}
            testId={`run-row-${test}`}
          />
        ))
      )}
    </section>
  );
}
