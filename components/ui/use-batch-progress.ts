"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

import type { Action } from "@/lib/actions/result";

/** What every batch's progress holds; each kind of batch adds its own counters. */
export type BatchProgress = {
  batchId: string;
  status: string;
  total: number;
  done: number;
  errored: number;
  /** Why the batch stopped before its end (the sandbox failed). */
  stopReason: string | null;
};

/** A batch just started, as its first progress: nothing done yet, and finished already when it has nothing to do. */
export function startedBatch({ batchId, total }: { batchId: string; total: number }): BatchProgress {
  return { batchId, status: total === 0 ? "SUCCEEDED" : "RUNNING", total, done: 0, errored: 0, stopReason: null };
}

/**
 * A batch's progress (verification, evidence, solution runs), read every `everyMs` while it runs;
 * the page is refreshed once it ends, so what it renders from the batch catches up. A read that
 * fails is skipped: the next one tries again. `start` shows a batch just started.
 */
export function useBatchProgress<P extends BatchProgress>(
  initial: P | null,
  readProgress: Action<{ batchId: string }, P>,
  everyMs: number,
) {
  const router = useRouter();
  const [progress, start] = useState(initial);
  const isRunning = progress?.status === "RUNNING";
  const batchId = progress?.batchId;

  useEffect(() => {
    if (!isRunning || batchId === undefined) return;
    const timer = setInterval(async () => {
      const result = await readProgress({ batchId }).catch(() => null);
      if (!result?.ok) return;
      start(result.data);
      if (result.data.status !== "RUNNING") router.refresh();
    }, everyMs);
    return () => clearInterval(timer);
  }, [isRunning, batchId, everyMs, router, readProgress]);

  return { progress, isRunning, start };
}
