"use client";

import { useRouter } from "next/navigation";

import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { campaignIdSchema } from "@/lib/validation/campaigns";

/**
 * The "Start / next item" button: claims the next item with a POST (a server action) and opens it.
 * Shown when /next was reached other than from the app itself, since a GET must not take a lease.
 */
export function StartNextItem({
  campaignId,
  claim,
}: {
  campaignId: string;
  claim: Action<{ campaignId: string }, { itemUrl: string } | { withOthers: string } | null>;
}) {
  const router = useRouter();
  const { submit, isPending, message, say } = useAction();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const outcome = await submit(campaignIdSchema, { campaignId }, claim);
    if (!outcome.ok) return;
    if (outcome.data && "itemUrl" in outcome.data) return router.push(outcome.data.itemUrl);
    say(outcome.data ? outcome.data.withOthers : "There is nothing left for you to label here.");
  }

  return (
    <form onSubmit={onSubmit} aria-label="Start labelling" className="space-y-3">
      {message ? <ErrorNote>{message}</ErrorNote> : null}
      <Button type="submit" disabled={isPending} autoFocus>
        {isPending ? "Opening…" : "Start / next item"}
      </Button>
    </form>
  );
}
