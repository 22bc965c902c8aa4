"use client";

import { type BatchProgress, useBatchProgress } from "@/components/ui/use-batch-progress";
import type { Action } from "@/lib/actions/result";
import { countOf } from "@/lib/format/count";

type Progress = BatchProgress & { passed: number; failed: number; unavailable: number };

type Props = { initial: Progress; readProgress: Action<{ batchId: string }, Progress> };

/** A solution run's progress, read once a second while it runs; the page is refreshed when it ends (key it by the run). */
export function SolutionRunProgress({ initial, readProgress }: Props) {
  const batch = useBatchProgress(initial, readProgress, 1000);
  const { isRunning } = batch;
  const progress = batch.progress ?? initial;

  const share = progress.total === 0 ? 1 : progress.done / progress.total;
  return (
    <div className="space-y-1 text-sm" data-testid="solution-run">
      <p role="status">
        {isRunning ? "Running" : progress.status === "FAILED" ? "Stopped" : "Finished"}: {progress.done} of{" "}
        {countOf(progress.total, "solution")} · {progress.passed} pass both tests · {progress.failed} fail
        {progress.unavailable ? ` · ${progress.unavailable} unavailable here` : ""}
        {progress.errored ? ` · ${progress.errored} errored` : ""}
      </p>
      <div className="h-2 w-full max-w-md rounded bg-slate-100" aria-hidden>
        <div className="h-2 rounded bg-indigo-500" style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      {progress.stopReason ? <p className="text-red-700">{progress.stopReason}</p> : null}
    </div>
  );
}
