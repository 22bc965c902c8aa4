"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

import { Badge, Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { countOf } from "@/lib/format/count";
import { criticRunActionSchema } from "@/lib/validation/critics";

export type RunCounters = {
  runId: string;
  status: "RUNNING" | "PAUSED" | "CANCELLED" | "SUCCEEDED" | "FAILED";
  total: number;
  done: number;
  parsed: number;
  unreadable: number;
  pass: number;
  fail: number;
  errored: number;
  promptTokens: number;
  completionTokens: number;
  stopReason: string | null;
};

const TONES = { RUNNING: "indigo", PAUSED: "amber", CANCELLED: "gray", SUCCEEDED: "green", FAILED: "red" } as const;

/** A run's counters, polled every second while it runs, with pause, resume and cancel for admins. */
export function RunProgress({
  initial,
  canControl,
  readProgress,
  controlRun,
}: {
  initial: RunCounters;
  canControl: boolean;
  readProgress: Action<{ runId: string }, RunCounters>;
  controlRun: Action<{ runId: string; action: "pause" | "resume" | "cancel" }, RunCounters["status"]>;
}) {
  const router = useRouter();
  const [progress, setProgress] = useState(initial);
  const { submit, isPending, message } = useAction();

  useEffect(() => {
    if (progress.status !== "RUNNING") return;
    const timer = setTimeout(async () => {
      const result = await readProgress({ runId: progress.runId }).catch(() => null);
      if (!result?.ok) return;
      setProgress(result.data);
      // The results list below is server-rendered: refresh it as records finish.
      if (result.data.done !== progress.done || result.data.status !== "RUNNING") router.refresh();
    }, 1000);
    return () => clearTimeout(timer);
  }, [progress, readProgress, router]);

  async function onControl(action: "pause" | "resume" | "cancel") {
    const result = await submit(criticRunActionSchema, { runId: progress.runId, action }, controlRun);
    if (result.ok) setProgress({ ...progress, status: result.data });
  }

  const percent = progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 100;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <Badge tone={TONES[progress.status]}>
          <span data-testid="run-status">{progress.status.toLowerCase()}</span>
        </Badge>
        <span className="text-sm text-slate-700" data-testid="run-counts">
          {progress.done}/{countOf(progress.total, "record")} · {progress.parsed} parsed ({progress.pass} pass,{" "}
          {progress.fail} fail) · {progress.unreadable} unreadable · {progress.errored} errored ·{" "}
          {countOf(progress.promptTokens + progress.completionTokens, "token")}
        </span>
      </div>
      <div
        className="h-2 w-full overflow-hidden rounded bg-slate-100"
        role="progressbar"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-label="Run progress"
      >
        <div className="h-2 bg-indigo-500" style={{ width: `${percent}%` }} />
      </div>
      {progress.stopReason ? <ErrorNote>{progress.stopReason}</ErrorNote> : null}
      {message ? <ErrorNote>{message}</ErrorNote> : null}
      {canControl ? (
        <div className="flex gap-2">
          {progress.status === "RUNNING" ? (
            <Button variant="secondary" disabled={isPending} onClick={() => onControl("pause")}>
              Pause
            </Button>
          ) : null}
          {progress.status === "PAUSED" ? (
            <Button variant="secondary" disabled={isPending} onClick={() => onControl("resume")}>
              Resume
            </Button>
          ) : null}
          {progress.status === "RUNNING" || progress.status === "PAUSED" ? (
            <Button variant="danger" disabled={isPending} onClick={() => onControl("cancel")}>
              Cancel
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
