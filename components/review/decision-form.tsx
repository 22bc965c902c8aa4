"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import type { z } from "zod";

import { Button } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { WorkspaceCategory } from "@/components/workspace/category-checklist";
import { FormNotices, NoteField, useVerdictFields, VerdictFields } from "@/components/workspace/verdict-fields";
import type { Action } from "@/lib/actions/result";
import { decideItemSchema } from "@/lib/validation/review";

export type DecideAction = Action<z.input<typeof decideItemSchema>, { revision: number }>;

/**
 * The reviewer's decision: Valid/Invalid, categories from the campaign taxonomy, a required reason.
 * Sends the revision on screen as baseRevision; on CONFLICT it shows why, reloads the decision that
 * now stands and keeps what the reviewer typed. Keyboard, as the workspace's label (useVerdictKeys):
 * V, I, 1–9, C finds any category, N writes the reason, Enter decides (Ctrl/Cmd+Enter in the reason).
 */
export function DecisionForm({
  itemId,
  categories,
  current,
  onDecide,
}: {
  itemId: string;
  categories: WorkspaceCategory[];
  current: { revision: number; valid: boolean; categories: string[]; reason: string } | null;
  onDecide: DecideAction;
}) {
  const router = useRouter();
  const [valid, setValid] = useState<boolean | null>(current?.valid ?? null);
  const [selected, setSelected] = useState<string[]>(current?.categories ?? []);
  const [reason, setReason] = useState(current?.reason ?? "");
  const [saved, setSaved] = useState<string>();
  const { submit, isPending, message, say, fieldErrors } = useAction();
  const form = useRef<HTMLFormElement>(null);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const verdict = useVerdictFields({
    categories,
    valid,
    selected,
    onVerdict: setValid,
    onSelect: setSelected,
    textField: reasonField,
    form,
  });

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    setSaved(undefined);
    const input = {
      itemId,
      valid,
      categories: verdict.chosen,
      reason,
      ...(current ? { baseRevision: current.revision } : {}),
    };
    const result = await submit(decideItemSchema, input, onDecide);
    if (result.ok) setSaved(`Decision saved (revision ${result.data.revision}).`);
    else if (result.code === "CONFLICT")
      say(`${result.message} The decision that now stands is shown; your form is kept.`);
    // The decision on screen is stale: reload it (the form keeps its state).
    if (result.ok || result.code === "CONFLICT") router.refresh();
  }

  return (
    <form ref={form} onSubmit={onSubmit} className="space-y-4 text-sm" aria-label="Decision" noValidate>
      <FormNotices message={message} saved={saved} />
      <VerdictFields name="decision-verdict" errors={fieldErrors} fields={verdict.fields} />
      <NoteField
        id="decision-reason"
        label="Reason"
        isRequired
        ref={reasonField}
        value={reason}
        onChange={setReason}
        rows={4}
        error={fieldErrors.reason?.[0]}
        placeholder="Why this verdict? Ctrl+Enter submits, Esc leaves the field."
      />
      <Button type="submit" disabled={isPending} title="Shortcut: Enter">
        {isPending ? "Saving…" : current ? `Revise decision (Enter)` : "Decide (Enter)"}
      </Button>
    </form>
  );
}
