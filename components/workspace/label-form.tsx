"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

import { Button } from "@/components/ui/primitives";
import { FormNotices, submitOnCtrlEnter, VerdictPicker } from "@/components/workspace/verdict-fields";

import type { SubmitLabelAction } from "./action-types";
import type { WorkspaceCategory } from "./category-checklist";
import { CategoryField } from "./category-field";
import { holdKeys, releaseKeys } from "./key-hold";
import { useActiveTime } from "./use-active-time";
import { type LabelDraft, useLabelDraft } from "./use-label-draft";
import { useVerdictKeys } from "./use-verdict-keys";
import { useWorkspace } from "./workspace-context";

export type LoadedLabel = {
  valid: boolean;
  categories: string[];
  note: string | null;
  testLine: number | null;
  needsReview: boolean;
  revision: number;
};

type Errors = { valid?: string; categories?: string; note?: string; testLine?: string };

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
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string>();
  const [isPending, setPending] = useState(false);
  // A first blind label was saved and the critic is on its way (the refresh has not brought it yet).
  const [isRevealPending, setRevealPending] = useState(false);
  const isAwaitingCritic = isRevealPending && !isCriticVisible;
  const { announceReveal } = useWorkspace();
  const pending = useRef(false);
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
  const allowed = (key: string) => valid !== true || !categories.find((category) => category.key === key)?.invalidating;
  const isNoteRequired = requireInvalidNote && valid === false;

  function toggle(key: string) {
    if (!allowed(key)) return;
    setLabel((current) => ({
      ...current,
      categories: current.categories.includes(key)
        ? current.categories.filter((entry) => entry !== key)
        : [...current.categories, key],
    }));
  }

  // Keys pressed while a save moved here from the previous item were held for this form: type them now.
  useEffect(() => releaseKeys(), []);

  const finder = useVerdictKeys({
    categories,
    onVerdict: (next) => update({ valid: next }),
    onToggle: toggle,
    textField: noteField,
    form,
  });

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending.current) return;
    // Going on before the revealed critic is on screen would skip the look it was revealed for.
    if (isAwaitingCritic) return router.refresh();
    const chosen = selected.filter(allowed);
    const problems: Errors = {};
    if (valid === null) problems.valid = "Choose Valid (V) or Invalid (I).";
    if (valid === false && chosen.length === 0)
      problems.categories = "Pick at least one error category (1–9, or C to find one).";
    if (isNoteRequired && !note.trim()) problems.note = "Say why it is invalid.";
    if (testLine && !(Number.isInteger(Number(testLine)) && Number(testLine) >= 1))
      problems.testLine = "A line number from 1.";
    setErrors(problems);
    if (valid === null || Object.keys(problems).length > 0) {
      setMessage(undefined);
      return;
    }
    pending.current = true;
    setPending(true);
    // Until the next item (or the revealed critic) is on screen, keys are kept for it: a note typed
    // straight after Enter and N belongs to the next item, and none of its letters is a shortcut.
    holdKeys();
    try {
      const result = await onSubmitLabel({
        itemId,
        valid,
        categories: chosen,
        note: note.trim() || undefined,
        testLine: testLine ? Number(testLine) : null,
        needsReview,
        activeMs: activeTime.peek(),
        baseRevision,
      });
      if (!result.ok) {
        const fields = result.fieldErrors ?? {};
        setErrors({
          valid: fields.valid?.[0],
          categories: fields.categories?.[0],
          note: fields.note?.[0],
          testLine: fields.testLine?.[0],
        });
        setMessage(result.message);
        releaseKeys();
        return;
      }
      const { revision, isCriticRevealed, nextUrl } = result.data;
      activeTime.reset();
      draft.clear();
      draft.markSaved(revision);
      setMessage(undefined);
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
    } catch {
      setMessage("The server could not be reached. Your form is kept; try again.");
      releaseKeys();
    } finally {
      pending.current = false;
      setPending(false);
    }
  }

  return (
    <form ref={form} onSubmit={onSubmit} className="space-y-2.5 text-sm" aria-label="Label" noValidate>
      <FormNotices
        message={message}
        saved={isAwaitingCritic ? "Saved. The critic is on its way; Enter goes on once it is shown." : undefined}
      />
      <VerdictPicker name="verdict" value={valid} onChange={(next) => update({ valid: next })} error={errors.valid} />
      <CategoryField
        categories={categories}
        selected={selected}
        isAllowed={allowed}
        onToggle={toggle}
        error={errors.categories}
        isFinderOpen={finder.isFinderOpen}
        onCloseFinder={finder.closeFinder}
      />
      <div className="space-y-1">
        <label htmlFor="label-note" className="block font-medium text-slate-700">
          Note{" "}
          {isNoteRequired ? (
            <span className="font-normal text-slate-500">(required)</span>
          ) : (
            <span className="font-normal text-slate-500">(optional)</span>
          )}{" "}
          <kbd aria-hidden="true" className="rounded bg-slate-100 px-1 font-mono text-xs text-slate-600">
            N
          </kbd>
        </label>
        <textarea
          id="label-note"
          ref={noteField}
          value={note}
          onChange={(event) => update({ note: event.target.value })}
          onKeyDown={submitOnCtrlEnter}
          rows={2}
          aria-invalid={Boolean(errors.note)}
          className="block w-full rounded-md border-0 px-2.5 py-1.5 ring-1 ring-slate-300 focus:ring-2 focus:ring-indigo-500"
          placeholder="What is wrong, and where? Ctrl+Enter submits, Esc leaves the field."
        />
        {errors.note ? (
          <p className="text-xs text-red-700" role="alert">
            {errors.note}
          </p>
        ) : null}
      </div>
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
            aria-invalid={Boolean(errors.testLine)}
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
      {errors.testLine ? (
        <p className="text-xs text-red-700" role="alert">
          {errors.testLine}
        </p>
      ) : null}
    </form>
  );
}
