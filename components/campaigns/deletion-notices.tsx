"use client";

import type { z } from "zod";

import { RefreshWhileRunning } from "@/components/jobs/refresh-while-running";
import { Button, Card } from "@/components/ui/primitives";
import { FormOutcome } from "@/components/ui/form-outcome";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { countOf } from "@/lib/format/count";
import { campaignIdSchema } from "@/lib/validation/campaigns";

type PendingDeletion = {
  campaignId: string;
  campaignName: string;
  items: number;
  status: "RUNNING" | "FAILED";
  stopReason: string | null;
};

/**
 * Campaigns deleted but not yet removed by their job (gone from the list already), or whose removal
 * failed, with the reason and, for admins, a button that deletes them again; the page follows a
 * running removal until it is done.
 */
export function DeletionNotices({
  deletions,
  deleteAgain,
}: {
  deletions: PendingDeletion[];
  /** Absent for those who may not delete campaigns. */
  deleteAgain?: Action<z.input<typeof campaignIdSchema>, unknown>;
}) {
  const { submit, isPending, message, notice } = useAction();
  if (deletions.length === 0) return null;
  return (
    <Card title="Deletions">
      <FormOutcome message={message} notice={notice} />
      <ul className="space-y-1 text-sm" aria-label="Campaign deletions">
        {deletions.map((deletion) => (
          <li key={deletion.campaignId} role="status" className="flex flex-wrap items-center gap-2">
            {deletion.status === "RUNNING" ? (
              <span className="text-slate-700">
                “{deletion.campaignName}” ({countOf(deletion.items, "item")}) is being deleted…
              </span>
            ) : (
              <>
                <span className="text-red-700">
                  “{deletion.campaignName}” could not be deleted: {deletion.stopReason ?? "its job failed"}.
                </span>
                {deleteAgain ? (
                  <Button
                    type="button"
                    variant="danger"
                    disabled={isPending}
                    onClick={() => void submit(campaignIdSchema, { campaignId: deletion.campaignId }, deleteAgain)}
                  >
                    Delete again
                  </Button>
                ) : null}
              </>
            )}
          </li>
        ))}
      </ul>
      <RefreshWhileRunning isRunning={deletions.some((deletion) => deletion.status === "RUNNING")} everyMs={2000} />
    </Card>
  );
}
