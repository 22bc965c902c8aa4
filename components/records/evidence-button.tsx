"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

import { Button } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { DEFAULT_MUTANTS, MAX_MUTANTS } from "@/lib/evidence/mutation";
import { MAX_REPEAT } from "@/lib/evidence/flaky";
import { startEvidenceSchema } from "@/lib/validation/evidence";
import { countOf } from "@/lib/format/count";

type Progress = {
  batchId: string;
  status: string;
  total: number;
  done: number;
  errored: number;
  mutants: number;
  repeat: number;
  stopReason: string | null;
};

type Props = {
  dataset: string;
  latest: Progress | null;
  startEvidence: Action<
    { dataset: string; mutants: number; repeat: number },
    { batchId: string; total: number; resumed: boolean }
  >;
  readProgress: Action<{ batchId: string }, Progress>;
};

/**
 * Starts mutation analysis (and, if asked, the flakiness check) of a dataset's records and shows its
 * progress, read every two seconds until it ends; after a reload the newest batch is shown again.
 */
export function EvidenceButton({ dataset, latest, startEvidence, readProgress }: Props) {
  const router = useRouter();
  const { submit, isPending, message, fieldErrors } = useAction();
  const [progress, setProgress] = useState<Progress | null>(latest);
  const [mutants, setMutants] = useState(DEFAULT_MUTANTS);
  const [repeat, setRepeat] = useState(0);
  const isRunning = progress?.status === "RUNNING";

  useEffect(() => {
    if (!isRunning || !progress) return;
    const timer = setInterval(async () => {
      const result = await readProgress({ batchId: progress.batchId }).catch(() => null);
      if (!result?.ok) return;
      setProgress(result.data);
      if (result.data.status !== "RUNNING") router.refresh();
    }, 2000);
    return () => clearInterval(timer);
  }, [isRunning, progress, router, readProgress]);

  async function start() {
    const input = { dataset, mutants, repeat };
    const result = await submit(startEvidenceSchema, { mutants, repeat }, () => startEvidence(input));
    if (!result.ok) return;
    setProgress({
      batchId: result.data.batchId,
      status: result.data.total === 0 ? "SUCCEEDED" : "RUNNING",
      total: result.data.total,
      done: 0,
      errored: 0,
      mutants,
      repeat,
      stopReason: null,
    });
  }

  const percent = progress?.total ? Math.round((100 * progress.done) / progress.total) : 100;
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
          <div
            className="h-1.5 overflow-hidden rounded bg-slate-200"
            role="progressbar"
            aria-label="Evidence progress"
            aria-valuenow={progress.done}
            aria-valuemax={progress.total}
          >
            <div className="h-full bg-indigo-600" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-600" data-testid="evidence-progress">
            {progress.done}/{countOf(progress.total, "record task")} ·{" "}
            {progress.status === "RUNNING" ? "running" : progress.status.toLowerCase()}
            {progress.errored ? ` · ${progress.errored} errored` : ""}
            {` · ${countOf(progress.mutants, "mutant")}${progress.repeat ? `, ${countOf(progress.repeat, "run")} per test` : ""}`}
          </p>
          {progress.stopReason ? <p className="mt-1 text-xs text-red-700">{progress.stopReason}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
