"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";

import { Button } from "@/components/ui/primitives";

import { CategoryChecklist, type WorkspaceCategory } from "./category-checklist";
import { useActiveTime } from "./use-active-time";
import { useHotkeys } from "./use-hotkeys";
import { FormNotices, submitOnCtrlEnter, VerdictPicker } from "@/components/workspace/verdict-fields";

export type LoadedLabel = { valid: boolean; categories: string[]; note: string | null; testLine: number | null; needsReview: boolean; revision: number };

type Errors = { valid?: string; categories?: string; note?: string; testLine?: string };

/**
 * The label: valid/invalid, error categories, note, test line, needs-review. Posts to the
 * annotations API with the revision it was loaded at and the visible-tab time. Keyboard: V, I,
 * 1–9, N (note), Enter submits (Ctrl/Cmd+Enter inside the note).
 */
export function LabelForm({ itemId, campaignId, blind, categories, loaded }: { itemId: string; campaignId: string; blind: boolean; categories: WorkspaceCategory[]; loaded: LoadedLabel | null }) {
  const router = useRouter();
  const [valid, setValid] = useState<boolean | null>(loaded?.valid ?? null);
  const [selected, setSelected] = useState<string[]>(loaded?.categories ?? []);
  const [note, setNote] = useState(loaded?.note ?? "");
  const [testLine, setTestLine] = useState(loaded?.testLine ? String(loaded.testLine) : "");
  const [needsReview, setNeedsReview] = useState(loaded?.needsReview ?? false);
  const [baseRevision, setBaseRevision] = useState(loaded?.revision ?? 0);
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const [isPending, setPending] = useState(false);
  const pending = useRef(false);
  const form = useRef<HTMLFormElement>(null);
  const noteField = useRef<HTMLTextAreaElement>(null);
  const activeTime = useActiveTime();
  const allowed = (key: string) => valid !== true || !categories.find((category) => category.key === key)?.invalidating;

  function toggle(key: string) {
    if (!allowed(key)) return;
    setSelected((current) => (current.includes(key) ? current.filter((entry) => entry !== key) : [...current, key]));
  }

  const digitKeys = Object.fromEntries(categories.slice(0, 9).map((category, index) => [String(index + 1), () => toggle(category.key)]));
  useHotkeys({ v: () => setValid(true), i: () => setValid(false), n: () => noteField.current?.focus(), Enter: () => form.current?.requestSubmit(), ...digitKeys });

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending.current) return;
    const chosen = selected.filter(allowed);
    const problems: Errors = {};
    if (valid === null) problems.valid = "Choose Valid (V) or Invalid (I).";
    if (valid === false && chosen.length === 0) problems.categories = "Pick at least one error category.";
    if (valid === false && !note.trim()) problems.note = "Say why it is invalid.";
    if (testLine && !(Number.isInteger(Number(testLine)) && Number(testLine) >= 1)) problems.testLine = "A line number from 1.";
    setErrors(problems);
    setSaved(undefined);
    if (Object.keys(problems).length > 0) {
      setMessage(undefined);
      return;
    }
    pending.current = true;
    setPending(true);
    try {
      const body = { valid, categories: chosen, note: note.trim() || undefined, testLine: testLine ? Number(testLine) : null, needsReview, activeMs: activeTime.peek(), baseRevision };
      const response = await fetch(`/api/v1/items/${itemId}/annotations`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const result = (await response.json()) as { revision?: number; created?: boolean; error?: { message: string; fieldErrors?: Record<string, string[]> } };
      if (!response.ok || result.revision === undefined) {
        const fields = result.error?.fieldErrors ?? {};
        setErrors({ valid: fields.valid?.[0], categories: fields.categories?.[0], note: fields.note?.[0], testLine: fields.testLine?.[0] });
        setMessage(result.error?.message ?? `Saving failed (${response.status}).`);
        return;
      }
      activeTime.reset();
      setMessage(undefined);
      setBaseRevision(result.revision);
      if (blind && result.created) {
        setSaved("Saved. The critic is now shown: revise your label if it changes your mind, or press Enter to go on.");
        router.refresh();
        return;
      }
      router.push(`/campaigns/${campaignId}/next`);
    } catch {
      setMessage("The server could not be reached. Your form is kept; try again.");
    } finally {
      pending.current = false;
      setPending(false);
    }
  }

  return (
    <form ref={form} onSubmit={onSubmit} className="space-y-4 text-sm" aria-label="Label" noValidate>
      <FormNotices message={message} saved={saved} />
      <VerdictPicker name="verdict" value={valid} onChange={setValid} error={errors.valid} />
      <CategoryChecklist categories={categories} selected={selected} isAllowed={allowed} onToggle={toggle} error={errors.categories} />
      <div className="space-y-1">
        <label htmlFor="label-note" className="block font-medium text-slate-700">
          Note {valid === false ? <span className="font-normal text-slate-500">(required)</span> : null} <kbd aria-hidden="true" className="rounded bg-slate-100 px-1 font-mono text-xs text-slate-600">N</kbd>
        </label>
        <textarea id="label-note" ref={noteField} value={note} onChange={(event) => setNote(event.target.value)} onKeyDown={submitOnCtrlEnter} rows={4} aria-invalid={Boolean(errors.note)} className="block w-full rounded-md border-0 px-2.5 py-1.5 ring-1 ring-slate-300 focus:ring-2 focus:ring-indigo-500" placeholder="What is wrong, and where? Ctrl+Enter submits, Esc leaves the field." />
        {errors.note ? <p className="text-xs text-red-700" role="alert">{errors.note}</p> : null}
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <div className="space-y-1">
          <label htmlFor="label-test-line" className="block font-medium text-slate-700">
            Test line <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input id="label-test-line" type="number" min={1} value={testLine} onChange={(event) => setTestLine(event.target.value)} onKeyDown={(event) => event.key === "Escape" && event.currentTarget.blur()} className="block w-28 rounded-md border-0 px-2.5 py-1.5 ring-1 ring-slate-300 focus:ring-2 focus:ring-indigo-500" />
          {errors.testLine ? <p className="text-xs text-red-700" role="alert">{errors.testLine}</p> : null}
        </div>
        <label className="flex items-center gap-2 pb-1.5">
          <input type="checkbox" checked={needsReview} onChange={(event) => setNeedsReview(event.target.checked)} className="size-4" />
          Needs review
        </label>
      </div>
      <Button type="submit" disabled={isPending} title="Shortcut: Enter">
        {isPending ? "Saving…" : baseRevision > 0 ? "Save revision (Enter)" : "Submit and next (Enter)"}
      </Button>
    </form>
  );
}
