"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

import { Button } from "@/components/ui/primitives";

type Progress = { batchId: string; status: string; total: number; done: number; executableValid: number; failed: number; unavailable: number; errored?: number };

/** Starts batch verification of a dataset and shows its progress until it finishes. */
export function VerifyButton({ dataset, latest }: { dataset: string; latest: Progress | null }) {
  const router = useRouter();
  const [progress, setProgress] = useState<Progress | null>(latest);
  const [error, setError] = useState<string>();
  const isRunning = progress?.status === "RUNNING";

  useEffect(() => {
    if (!isRunning || !progress) return;
    const timer = setInterval(async () => {
      const response = await fetch(`/api/v1/verifications/${progress.batchId}`);
      if (!response.ok) return;
      const next = (await response.json()) as Progress;
      setProgress(next);
      if (next.status !== "RUNNING") router.refresh();
    }, 1000);
    return () => clearInterval(timer);
  }, [isRunning, progress, router]);

  async function start(force: boolean) {
    setError(undefined);
    const response = await fetch(`/api/v1/datasets/${encodeURIComponent(dataset)}/verifications`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ force }) });
    const body = (await response.json()) as { batchId?: string; total?: number; error?: { message: string } };
    if (!response.ok || !body.batchId) return setError(body.error?.message ?? "Could not start the verification.");
    setProgress({ batchId: body.batchId, status: body.total === 0 ? "SUCCEEDED" : "RUNNING", total: body.total ?? 0, done: 0, executableValid: 0, failed: 0, unavailable: 0, errored: 0 });
  }

  return (
    <div className="flex flex-col items-end gap-1 text-sm">
      <div className="flex gap-2">
        <Button onClick={() => start(false)} disabled={isRunning} title="Run every record's canonical solution against its demo and full tests">
          {isRunning ? "Verifying…" : "Verify records"}
        </Button>
        {!isRunning && progress ? (
          <Button variant="secondary" onClick={() => start(true)}>
            Re-verify all
          </Button>
        ) : null}
      </div>
      {progress ? (
        <div className="w-64" aria-live="polite">
          <div className="h-1.5 overflow-hidden rounded bg-slate-200" role="progressbar" aria-label="Verification progress" aria-valuenow={progress.done} aria-valuemax={progress.total}>
            <div className="h-full bg-indigo-600" style={{ width: `${progress.total ? (100 * progress.done) / progress.total : 100}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-600">
            {progress.done}/{progress.total} verified · {progress.executableValid} pass · {progress.failed} fail · {progress.unavailable} unavailable here
            {progress.errored ? ` · ${progress.errored} errored` : ""}
          </p>
          <Link href={`/verifications/${encodeURIComponent(progress.batchId)}`} className="text-xs text-indigo-700 hover:underline">
            Run details
          </Link>
        </div>
      ) : null}
      {error ? <p className="text-xs text-red-700">{error}</p> : null}
    </div>
  );
}
