"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

import { Button, ErrorNote, Field, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { skipItemSchema } from "@/lib/validation/campaigns";

import type { SkipItemAction } from "./action-types";
import { holdKeysUntilTextFocus } from "./key-hold";
import { useHotkeys } from "./use-hotkeys";

/** Skips the item with a required reason and moves on to the next item the same request claimed. Keyboard: S opens the reason field, Enter confirms, Esc cancels. */
export function SkipControl({ itemId, onSkip }: { itemId: string; onSkip: SkipItemAction }) {
  const router = useRouter();
  const [isOpen, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const { submit, isPending, message, fieldErrors } = useAction();
  const error = fieldErrors.reason?.[0] ?? message;

  useHotkeys({
    s: () => {
      // The reason field takes focus once rendered: what is typed until then is kept for it.
      if (!isOpen) holdKeysUntilTextFocus();
      setOpen(true);
    },
  });

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const result = await submit(skipItemSchema, { itemId, reason }, onSkip);
    if (result.ok) router.push(result.data.nextUrl);
  }

  if (!isOpen) {
    return (
      <Button variant="secondary" onClick={() => setOpen(true)} title="Shortcut: S">
        Skip… (S)
      </Button>
    );
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2 text-sm" aria-label="Skip this item" noValidate>
      <Field label="Reason for skipping" htmlFor="skip-reason" className="min-w-64 flex-1">
        <Input
          id="skip-reason"
          autoFocus
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape") setOpen(false);
          }}
          maxLength={500}
          required
          placeholder="e.g. I do not know this library well enough"
        />
      </Field>
      <Button type="submit" variant="danger" disabled={isPending}>
        {isPending ? "Skipping…" : "Confirm skip"}
      </Button>
      <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
        Cancel
      </Button>
      {error ? (
        <div className="w-full">
          <ErrorNote>{error}</ErrorNote>
        </div>
      ) : null}
    </form>
  );
}
