"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

import { Button } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { FormNotices, NoteField, useVerdictFields, VerdictFields } from "@/components/workspace/verdict-fields";
import { labelItemSchema } from "@/lib/validation/campaigns";

import type { SubmitLabelAction } from "./action-types";
import type { WorkspaceCategory } from "./category-checklist";
import { holdKeys, releaseKeys } from "./key-hold";
import { useActiveTime } from "./use-active-time";
import { type LabelDraft, useLabelDraft } from "./use-label-draft";
import { useWorkspace } from "./workspace-context";

export type LoadedLabel = {
  valid: boolean;
  categories: string[];
  note: string | null;
  testLine: number | null;
  needsReview: boolean;
  revision: number;
};

function fromLoaded(loaded: LoadedLabel | null): LabelDraft {
  return {
    valid: loaded?.valid ?? null,
    categories: loaded?.categories ?? [],
    note: loaded?.note ?? "",
    testLine: loaded?.testLine ? String(loaded.testLine) : "",
    needsReview: loaded?.needsReview ?? false,
    baseRevision: loaded?.revision ?? 0,
  };
}

/**
 * The label: valid/invalid, error categories, note, test line, needs-review. Saves through the
 * page's action with the revision it was loaded at and the visible-tab time; the same request
 * claims the next item, which opens at once. After a first blind label the critic is shown first,
 * and Enter goes on only once it is on screen (the page's refresh brings it; until then Enter waits).
 * Unsaved work is kept as a draft in the browser. Keyboard (useVerdictKeys): V, I, 1–9, C (find any
 * category), N (note), Enter submits (Ctrl/Cmd+Enter inside the note).
 */
export function LabelForm({
  itemId,
  requireInvalidNote,
  categories,
  loaded,
  isCriticVisible,
  onSubmitLabel,
}: {
  itemId: string;
  requireInvalidNote: boolean;
  categories: WorkspaceCategory[];
  loaded: LoadedLabel | null;
  isCriticVisible: boolean;
  onSubmitLabel: SubmitLabelAction;
}) {
  const router = useRouter();
  const [label, setLabel] = useState<LabelDraft>(() => fromLoaded(loaded));
  const [loadedRevision, setLoadedRevision] = useState(loaded?.revision ?? 0);
  const { submit, isPending, message, fieldErrors } = useAction();
  // A first blind label was saved and the critic is on its way (the refresh has not brought it yet).
  const [isRevealPending, setRevealPending] = useState(false);
  const isAwaitingCritic = isRevealPending && !isCriticVisible;
  const { announceReveal } = useWorkspace();
  const form = useRef<HTMLFormElement>(null);
  const noteField = useRef<HTMLTextAreaElement>(null);
  const activeTime = useActiveTime();
  const { valid, categories: selected, note, testLine, needsReview, baseRevision } = label;
  const update = (patch: Partial<LabelDraft>) => setLabel((current) => ({ ...current, ...patch }));

  // A newer saved label arrived from the server (after Back, or another tab): show it.
  if ((loaded?.revision ?? 0) !== loadedRevision) {
    setLoadedRevision(loaded?.revision ?? 0);
    if ((loaded?.revision ?? 0) > baseRevision) setLabel(fromLoaded(loaded));
  }

  const draft = useLabelDraft({
    itemId,
    current: label,
    pristine: fromLoaded(loaded),
    loadedRevision: loaded?.revision ?? 0,
    onRestore: setLabel,
    onStale: () => router.refresh(),
  });
  const isNoteRequired = requireInvalidNote && valid === false;

  // Keys pressed while a save moved here from the previous item were held for this form: type them now.
  useEffect(() => releaseKeys(), []);

  const verdict = useVerdictFields({
    categories,
    valid,
    selected,
    onVerdict: (next) => update({ valid: next }),
    onSelect: (change) => setLabel((current) => ({ ...current, categories: change(current.categories) })),
    textField: noteField,
    form,
  });

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    // Going on before the revealed critic is on screen would skip the look it was revealed for.
    if (isAwaitingCritic) return router.refresh();
    const input = {
      itemId,
      valid,
      categories: verdict.chosen,
      note: note.trim() || undefined,
      testLine: testLine ? Number(testLine) : null,
      needsReview,
      activeMs: activeTime.peek(),
      baseRevision,
    };
    // Until the next item (or the revealed critic) is on screen, keys are kept for it: a note typed
    // straight after Enter and N belongs to the next item, and none of its letters is a shortcut.
    holdKeys();
    // The campaign's note rule (requireInvalidNote) is the server's to check: it answers on the note.
    const result = await submit(labelItemSchema, input, onSubmitLabel);
    if (!result.ok) return releaseKeys();
    const { revision, isCriticRevealed, nextUrl } = result.data;
    activeTime.reset();
    draft.clear();
    draft.markSaved(revision);
    setLabel((current) => ({ ...current, baseRevision: revision }));
    if (isCriticRevealed || nextUrl === null) {
      // Leave the note (so Enter goes on, as the critic's banner says); the critic takes focus once it arrives.
      (document.activeElement as HTMLElement | null)?.blur();
      // The revealed critic releases the keys once it has focus; with nothing to reveal, now.
      if (!isCriticRevealed) releaseKeys();
      announceReveal(itemId);
      setRevealPending(true);
      router.refresh();
      return;
    }
    // The action already claimed this item for us: opening it is the only request left.
    router.push(nextUrl);
  }

  return (
    <form ref={form} onSubmit={onSubmit} className="space-y-2.5 text-sm" aria-label="Label" noValidate>
      <FormNotices
        message={message}
        saved={isAwaitingCritic ? "Saved. The critic is on its way; Enter goes on once it is shown." : undefined}
      />
      <VerdictFields name="verdict" errors={fieldErrors} fields={verdict.fields} />
      <NoteField
        id="label-note"
        label="Note"
        isRequired={isNoteRequired}
        ref={noteField}
        value={note}
        onChange={(next) => update({ note: next })}
        rows={2}
        error={fieldErrors.note?.[0]}
        placeholder="What is wrong, and where? Ctrl+Enter submits, Esc leaves the field."
      />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <label htmlFor="label-test-line" className="flex items-center gap-2 text-slate-700">
          Test line
          <input
            id="label-test-line"
            type="number"
            min={1}
            value={testLine}
            onChange={(event) => update({ testLine: event.target.value })}
            onKeyDown={(event) => event.key === "Escape" && event.currentTarget.blur()}
            aria-invalid={Boolean(fieldErrors.testLine)}
            className="block w-20 rounded-md border-0 px-2 py-1 ring-1 ring-slate-300 focus:ring-2 focus:ring-indigo-500"
            placeholder="opt."
          />
        </label>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={needsReview}
            onChange={(event) => update({ needsReview: event.target.checked })}
            className="size-4"
          />
          Needs review
        </label>
        <Button type="submit" disabled={isPending} title="Shortcut: Enter" className="ml-auto">
          {isPending ? "Saving…" : baseRevision > 0 ? "Save revision (Enter)" : "Submit and next (Enter)"}
        </Button>
      </div>
      {fieldErrors.testLine ? (
        <p className="text-xs text-red-700" role="alert">
          {fieldErrors.testLine[0]}
        </p>
      ) : null}
    </form>
  );
}
