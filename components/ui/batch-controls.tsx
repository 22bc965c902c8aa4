"use client";

import type { z } from "zod";

import { Button } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import type { JobKind } from "@/lib/jobs/types";
import { jobControlSchema } from "@/lib/validation/jobs";

export type BatchControl = z.input<typeof jobControlSchema>;

/** Pauses, resumes or cancels a batch (the Jobs page's action; the kind's own scope decides). */
export type ControlBatch = Action<BatchControl, { status: string }>;

/**
 * Pause (or Resume) and Cancel for a running batch, beside its progress. `onChanged` re-reads the
 * progress once the action is taken; a refusal (another tab already paused it) is said under them.
 */
export function BatchControls({
  kind,
  batchId,
  isPaused,
  item,
  controlBatch,
  onChanged,
}: {
  kind: Extract<JobKind, "verification" | "evidence">;
  batchId: string;
  isPaused: boolean;
  /** What one of its items is called, for the buttons' titles ("record", "record task"). */
  item: string;
  controlBatch: ControlBatch;
  onChanged: () => void;
}) {
  const { submit, isPending, message } = useAction();

  async function change(action: BatchControl["action"]) {
    const changed = await submit(jobControlSchema, { kind, id: batchId, action }, controlBatch);
    if (changed.ok) onChanged();
  }

  return (
    <>
      <div className="mt-1 flex gap-2">
        <Button
          variant="secondary"
          disabled={isPending}
          onClick={() => change(isPaused ? "resume" : "pause")}
          title={
            isPaused
              ? `Queue the ${item}s it lacks again`
              : `The workers leave its ${item}s until you resume; a ${item} being run finishes`
          }
        >
          {isPaused ? "Resume" : "Pause"}
        </Button>
        <Button
          variant="secondary"
          disabled={isPending}
          onClick={() => change("cancel")}
          title={`End it here: a ${item} being run now is not written`}
        >
          Cancel
        </Button>
      </div>
      {message ? (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {message}
        </p>
      ) : null}
    </>
  );
}
