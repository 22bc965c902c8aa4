"use client";

import { useRouter } from "next/navigation";

import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import type { JobAction, JobKind, JobStatus } from "@/lib/jobs/types";
import { jobControlSchema } from "@/lib/validation/jobs";

export type ControlJob = Action<
  { kind: JobKind; id: string; action: JobAction },
  { kind: JobKind; id: string; status: JobStatus }
>;

const LABELS: Record<JobAction, string> = { pause: "Pause", resume: "Resume", cancel: "Cancel" };

/** The actions the caller may take on one job now; the page re-renders with the job's new status. */
export function JobControls({
  kind,
  id,
  actions,
  controlJob,
}: {
  kind: JobKind;
  id: string;
  actions: JobAction[];
  controlJob: ControlJob;
}) {
  const router = useRouter();
  const { submit, isPending, message } = useAction();
  if (actions.length === 0) return null;

  async function onAction(action: JobAction) {
    const result = await submit(jobControlSchema, { kind, id, action }, controlJob);
    if (result.ok) router.refresh();
  }

  return (
    <div className="space-y-1">
      <div className="flex gap-1.5">
        {actions.map((action) => (
          <Button
            key={action}
            type="button"
            variant={action === "cancel" ? "danger" : "secondary"}
            disabled={isPending}
            onClick={() => onAction(action)}
          >
            {LABELS[action]}
          </Button>
        ))}
      </div>
      {message ? <ErrorNote>{message}</ErrorNote> : null}
    </div>
  );
}
