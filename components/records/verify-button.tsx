"use client";

import Link from "next/link";
import { useState } from "react";
import type { z } from "zod";

import { BatchBar } from "@/components/ui/batch-bar";
import { BatchControls, type ControlBatch } from "@/components/ui/batch-controls";
import { Button } from "@/components/ui/primitives";
import { QueuedAhead } from "@/components/ui/queued-ahead";
import { useAction } from "@/components/ui/use-action";
import { type BatchProgress, startedBatch, useBatchProgress } from "@/components/ui/use-batch-progress";
import type { Action } from "@/lib/actions/result";
import { DEFAULT_REPEAT } from "@/lib/evidence/flaky";
import { countOf } from "@/lib/format/count";
import { verifyDatasetSchema } from "@/lib/validation/records";

type Progress = BatchProgress & {
  executableValid: number;
  failed: number;
  unavailable: number;
  inconclusive?: number;
  /** Records whose run failed for want of a dependency: not failed. */
  environmentFailed?: number;
  /** Repeated runs per record of the flaky option (0: not asked), and records found flaky. */
  repeat?: number;
  flaky?: number;
  /** Jobs the workers take before this batch's first one; 0 once it runs. */
  queuedAhead?: number;
  /** Paused by a person (still RUNNING), or cancelled (FAILED). */
  isPaused?: boolean;
  isCancelled?: boolean;
};

type Props = {
  dataset: string;
  latest: Progress | null;
  startVerification: Action<z.input<typeof verifyDatasetSchema>, { batchId: string; total: number }>;
  readProgress: Action<{ batchId: string }, Progress>;
  /** Pauses, resumes or cancels the batch (the Jobs page's action; datasets:verify). */
  controlBatch: ControlBatch;
};

/**
 * Starts batch verification of a dataset and shows its progress, read once a second, until it
 * finishes, with Pause (Resume) and Cancel while it runs.
 */
export function VerifyButton({ dataset, latest, startVerification, readProgress, controlBatch }: Props) {
  const { progress, isRunning, start: showBatch } = useBatchProgress(latest, readProgress, 1000);
  const { submit, isPending, message: error } = useAction();
  const [isCheckingFlaky, setCheckingFlaky] = useState(false);

  async function reread(batchId: string) {
    const now = await readProgress({ batchId }).catch(() => null);
    if (now?.ok) showBatch(now.data);
  }

  async function start(force: boolean) {
    const repeat = isCheckingFlaky ? DEFAULT_REPEAT : undefined;
    const result = await submit(verifyDatasetSchema, { dataset, force, repeat }, startVerification);
    if (!result.ok) return;
    showBatch({
      ...startedBatch(result.data),
      executableValid: 0,
      failed: 0,
      unavailable: 0,
      repeat: repeat ?? 0,
      flaky: 0,
    });
  }

  return (
    <div className="flex flex-col items-end gap-1 text-sm">
      <div className="flex gap-2">
        <Button
          onClick={() => start(false)}
          disabled={isRunning || isPending}
          title="Run every record's canonical solution against its demo and full tests"
        >
          {isRunning ? (progress?.isPaused ? "Paused" : "Verifying…") : "Verify records"}
        </Button>
        {!isRunning && progress ? (
          <Button variant="secondary" onClick={() => start(true)} disabled={isPending}>
            Re-verify all
          </Button>
        ) : null}
      </div>
      <label
        className="flex items-center gap-1.5 text-xs text-slate-600"
        title={`Runs each record's tests ${DEFAULT_REPEAT} more times, each alone; outcomes that differ mark it flaky`}
      >
        <input
          type="checkbox"
          checked={isCheckingFlaky}
          disabled={isRunning}
          onChange={(event) => setCheckingFlaky(event.target.checked)}
          className="size-3.5"
        />
        Also check for flaky tests ({countOf(DEFAULT_REPEAT, "run")} each)
      </label>
      {progress ? (
        <div className="w-64" aria-live="polite">
          <BatchBar label="Verification progress" done={progress.done} total={progress.total} />
          <p className="mt-1 text-xs text-slate-600" data-testid="verification-progress">
            {progress.done}/{progress.total} verified · {progress.executableValid} pass · {progress.failed} fail ·{" "}
            {progress.unavailable} unavailable here
            {progress.inconclusive ? ` · ${progress.inconclusive} inconclusive` : ""}
            {progress.environmentFailed ? ` · ${progress.environmentFailed} not run: environment` : ""}
            {progress.errored ? ` · ${progress.errored} errored` : ""}
            {progress.repeat ? ` · ${progress.flaky ?? 0} flaky` : ""}
          </p>
          <QueuedAhead count={progress.queuedAhead} />
          {progress.isPaused ? (
            <p className="mt-1 text-xs font-medium text-amber-800" data-testid="verification-paused">
              Paused: the workers leave its records until you resume it.
            </p>
          ) : null}
          {isRunning ? (
            <BatchControls
              kind="verification"
              batchId={progress.batchId}
              isPaused={progress.isPaused ?? false}
              item="record"
              controlBatch={controlBatch}
              onChanged={() => void reread(progress.batchId)}
            />
          ) : null}
          {progress.stopReason ? (
            <p className="mt-1 text-xs text-red-700" data-testid="verification-stopped">
              {progress.stopReason}
            </p>
          ) : null}
          <Link
            href={`/verifications/${encodeURIComponent(progress.batchId)}`}
            className="text-xs text-indigo-700 hover:underline"
          >
            Run details
          </Link>
        </div>
      ) : null}
      {error ? <p className="text-xs text-red-700">{error}</p> : null}
    </div>
  );
}
