"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

import { Button, ErrorNote } from "@/components/ui/primitives";
import type { Action } from "@/lib/actions/result";

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
  const [message, setMessage] = useState<string>();
  const [isPending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    try {
      const outcome = await claim({ campaignId });
      if (!outcome.ok) return setMessage(outcome.message);
      if (outcome.data && "itemUrl" in outcome.data) return router.push(outcome.data.itemUrl);
      if (outcome.data) return setMessage(outcome.data.withOthers);
      setMessage("There is nothing left for you to label here.");
    } catch {
      setMessage("The server could not be reached. Try again.");
    } finally {
      setPending(false);
    }
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
