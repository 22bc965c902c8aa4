"use client";

import { useState } from "react";
import type { z } from "zod";

import { BatchBar } from "@/components/ui/batch-bar";
import { BatchControls, type ControlBatch } from "@/components/ui/batch-controls";
import { batchStateWord } from "@/lib/jobs/batch-state";
import { Button } from "@/components/ui/primitives";
import { QueuedAhead } from "@/components/ui/queued-ahead";
import { useAction } from "@/components/ui/use-action";
import { type BatchProgress, startedBatch, useBatchProgress } from "@/components/ui/use-batch-progress";
import type { Action } from "@/lib/actions/result";
import { DEFAULT_MUTANTS, MAX_MUTANTS } from "@/lib/evidence/mutation";
import { MAX_REPEAT } from "@/lib/evidence/flaky";
import { startDatasetEvidenceSchema } from "@/lib/validation/evidence";
import { countOf } from "@/lib/format/count";

type Progress = BatchProgress & {
  mutants: number;
  repeat: number;
  /** Jobs the workers take before this batch's first one; 0 once it runs. */
  queuedAhead?: number;
  /** Paused by a person (still RUNNING), or cancelled (FAILED). */
  isPaused?: boolean;
  isCancelled?: boolean;
};

type Props = {
  dataset: string;
  latest: Progress | null;
  startEvidence: Action<
    z.input<typeof startDatasetEvidenceSchema>,
    { batchId: string; total: number; resumed: boolean }
  >;
  readProgress: Action<{ batchId: string }, Progress>;
  /** Pauses, resumes or cancels the batch (the Jobs page's action; datasets:verify). */
  controlBatch: ControlBatch;
};

/**
 * Starts mutation analysis (and, if asked, the flakiness check) of a dataset's records and shows its
 * progress, read every two seconds until it ends; after a reload the newest batch is shown again.
 */
export function EvidenceButton({ dataset, latest, startEvidence, readProgress, controlBatch }: Props) {
  const { submit, isPending, message, fieldErrors } = useAction();
  const { progress, isRunning, start: showBatch } = useBatchProgress(latest, readProgress, 2000);
  const [mutants, setMutants] = useState(DEFAULT_MUTANTS);
  const [repeat, setRepeat] = useState(0);

  async function start() {
    const result = await submit(startDatasetEvidenceSchema, { dataset, mutants, repeat }, startEvidence);
    if (!result.ok) return;
    showBatch({ ...startedBatch(result.data), mutants, repeat });
  }

  async function reread(batchId: string) {
    const now = await readProgress({ batchId }).catch(() => null);
    if (now?.ok) showBatch(now.data);
  }

  return (
    <div className="flex max-w-full flex-col items-end gap-1 text-sm" data-testid="evidence-button">
      <div className="flex flex-wrap items-end justify-end gap-2">
        <label className="flex flex-col text-xs text-slate-600">
          Mutants per record
          <input
            type="number"
            min={0}
            max={MAX_MUTANTS}
            value={mutants}
            disabled={isRunning}
            onChange={(event) => setMutants(event.target.valueAsNumber)}
            className="w-20 rounded border border-slate-300 px-1.5 py-1 text-sm"
          />
        </label>
        <label
          className="flex flex-col text-xs text-slate-600"
          title="Runs of each test, each alone; outcomes that differ mark the record flaky (0: no check)"
        >
          Flaky check runs
          <input
            type="number"
            min={0}
            max={MAX_REPEAT}
            value={repeat}
            disabled={isRunning}
            onChange={(event) => setRepeat(event.target.valueAsNumber)}
            className="w-20 rounded border border-slate-300 px-1.5 py-1 text-sm"
          />
        </label>
        <Button
          variant="secondary"
          onClick={start}
          disabled={isRunning || isPending}
          title="Mutate each record's canonical solution and see whether its tests reject the mutants"
        >
          {isRunning ? "Measuring…" : isPending ? "Starting…" : "Measure test strength"}
        </Button>
      </div>
      {fieldErrors.mutants || fieldErrors.repeat || message ? (
        <p role="alert" className="text-xs text-red-700">
          {fieldErrors.mutants?.[0] ?? fieldErrors.repeat?.[0] ?? message}
        </p>
      ) : null}
      {progress ? (
        <div className="w-64 max-w-full" aria-live="polite">
          <BatchBar label="Evidence progress" done={progress.done} total={progress.total} />
          <p className="mt-1 text-xs text-slate-600" data-testid="evidence-progress">
            {progress.done}/{countOf(progress.total, "record task")} · {batchStateWord(progress)}
            {progress.errored ? ` · ${progress.errored} errored` : ""}
            {` · ${countOf(progress.mutants, "mutant")}${progress.repeat ? `, ${countOf(progress.repeat, "run")} per test` : ""}`}
          </p>
          <QueuedAhead count={progress.queuedAhead} />
          {isRunning ? (
            <BatchControls
              kind="evidence"
              batchId={progress.batchId}
              isPaused={progress.isPaused ?? false}
              item="record"
              controlBatch={controlBatch}
              onChanged={() => void reread(progress.batchId)}
            />
          ) : null}
          {progress.stopReason ? <p className="mt-1 text-xs text-red-700">{progress.stopReason}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
