"use client";

import Link from "next/link";
import { useRef, useState, useSyncExternalStore } from "react";
import type { z } from "zod";

import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { WorkspaceCategory } from "@/components/workspace/category-checklist";
import { CategoryField } from "@/components/workspace/category-field";
import { useVerdictKeys } from "@/components/workspace/use-verdict-keys";
import { submitOnCtrlEnter, VerdictPicker } from "@/components/workspace/verdict-fields";
import type { Action } from "@/lib/actions/result";
import { checkRevisionSchema } from "@/lib/validation/revisions";

export type CheckRevisionAction = Action<
  z.input<typeof checkRevisionSchema>,
  { status: "ACCEPTED" | "REJECTED"; number: number; recordId: number }
>;

/**
 * The checker's label on a revised record: valid accepts the revision, invalid rejects it. The
 * workspace's keys (useVerdictKeys): V, I, 1–9, C finds any category, N writes the note, Enter
 * submits (Ctrl/Cmd+Enter from the note). `data-ready` says the keys are listened to.
 */
export function CheckForm({
  revisionId,
  categories,
  onCheck,
}: {
  revisionId: string;
  categories: WorkspaceCategory[];
  onCheck: CheckRevisionAction;
}) {
  const { submit, isPending, message, fieldErrors } = useAction();
  const [done, setDone] = useState<{ status: string; recordId: number }>();
  const [valid, setValid] = useState<boolean | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [note, setNote] = useState("");
  // False in the server's HTML, true once hydrated: the keys are listened to.
  const isReady = useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
  const form = useRef<HTMLFormElement>(null);
  const noteField = useRef<HTMLTextAreaElement>(null);
  const allowed = (key: string) => valid !== true || !categories.find((category) => category.key === key)?.invalidating;

  function toggle(key: string) {
    if (!allowed(key)) return;
    setSelected((list) => (list.includes(key) ? list.filter((entry) => entry !== key) : [...list, key]));
  }
  const finder = useVerdictKeys({ categories, onVerdict: setValid, onToggle: toggle, textField: noteField, form });

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending || done) return;
    const input = {
      revisionId,
      valid,
      categories: valid ? [] : selected.filter(allowed),
      note: note.trim() || undefined,
    };
    const result = await submit(checkRevisionSchema, input, onCheck);
    if (result.ok) setDone({ status: result.data.status, recordId: result.data.recordId });
  }

  if (done)
    return (
      <p role="status" className="text-sm" data-testid="check-page" data-ready="true">
        Revision{" "}
        {done.status === "ACCEPTED" ? "accepted: the record now holds it" : "rejected: it stays in the history"}.{" "}
        <Link href={`/records/${done.recordId}`} className="text-indigo-700 hover:underline">
          See the record and its revisions
        </Link>
      </p>
    );
  return (
    <form
      ref={form}
      onSubmit={onSubmit}
      className="space-y-3 text-sm"
      aria-label="Check the revision"
      data-testid="check-page"
      data-ready={isReady ? "true" : "false"}
      noValidate
    >
      {message ? <ErrorNote>{message}</ErrorNote> : null}
      <VerdictPicker name="verdict" value={valid} onChange={setValid} error={fieldErrors.valid?.[0]} />
      <CategoryField
        categories={categories}
        selected={selected}
        isAllowed={allowed}
        onToggle={toggle}
        isFinderOpen={finder.isFinderOpen}
        onCloseFinder={finder.closeFinder}
      />
      <label className="block">
        <span className="font-medium text-slate-700">
          Note{" "}
          <kbd aria-hidden="true" className="rounded bg-slate-100 px-1 font-mono text-xs text-slate-600">
            N
          </kbd>
        </span>
        <textarea
          ref={noteField}
          name="note"
          value={note}
          onChange={(event) => setNote(event.target.value)}
          onKeyDown={submitOnCtrlEnter}
          rows={2}
          className="mt-1 w-full rounded-md p-2 ring-1 ring-slate-300"
          placeholder="Optional. Ctrl+Enter submits, Esc leaves the field."
        />
      </label>
      <Button type="submit" disabled={isPending} title="Shortcut: Enter">
        {isPending ? "Saving…" : "Submit check (Enter)"}
      </Button>
    </form>
  );
}
