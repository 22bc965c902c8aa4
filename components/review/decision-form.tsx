"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";

import { Button } from "@/components/ui/primitives";
import type { WorkspaceCategory } from "@/components/workspace/category-checklist";
import { CategoryField } from "@/components/workspace/category-field";
import { useVerdictKeys } from "@/components/workspace/use-verdict-keys";
import type { ActionResult } from "@/lib/actions/result";
import { FormNotices, submitOnCtrlEnter, VerdictPicker } from "@/components/workspace/verdict-fields";

type DecisionInput = {
  itemId: string;
  valid: boolean;
  categories: string[];
  reason: string;
  baseRevision?: number;
};
export type DecideAction = (input: DecisionInput) => Promise<ActionResult<{ revision: number }>>;

type Errors = { valid?: string; categories?: string; reason?: string };

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
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const [isPending, setPending] = useState(false);
  const pending = useRef(false);
  const form = useRef<HTMLFormElement>(null);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const allowed = (key: string) => valid !== true || !categories.find((category) => category.key === key)?.invalidating;

  function toggle(key: string) {
    if (!allowed(key)) return;
    setSelected((list) => (list.includes(key) ? list.filter((entry) => entry !== key) : [...list, key]));
  }

  const finder = useVerdictKeys({ categories, onVerdict: setValid, onToggle: toggle, textField: reasonField, form });

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending.current) return;
    const chosen = selected.filter(allowed);
    const problems: Errors = {};
    if (valid === null) problems.valid = "Choose Valid (V) or Invalid (I).";
    if (valid === false && chosen.length === 0)
      problems.categories = "Pick at least one error category (1–9, or C to find one).";
    if (!reason.trim()) problems.reason = "Give the reason for the decision.";
    setErrors(problems);
    setSaved(undefined);
    if (valid === null || Object.keys(problems).length > 0) return setMessage(undefined);
    pending.current = true;
    setPending(true);
    try {
      const result = await onDecide({
        itemId,
        valid,
        categories: chosen,
        reason: reason.trim(),
        ...(current ? { baseRevision: current.revision } : {}),
      });
      if (result.ok) {
        setMessage(undefined);
        setSaved(`Decision saved (revision ${result.data.revision}).`);
      } else {
        const fields = result.fieldErrors ?? {};
        setErrors({ valid: fields.valid?.[0], categories: fields.categories?.[0], reason: fields.reason?.[0] });
        setMessage(
          result.code === "CONFLICT"
            ? `${result.message} The decision that now stands is shown; your form is kept.`
            : result.message,
        );
      }
      // Either way the decision on screen may be stale: reload it (the form keeps its state).
      router.refresh();
    } catch {
      setMessage("The server could not be reached. Your form is kept; try again.");
    } finally {
      pending.current = false;
      setPending(false);
    }
  }

  return (
    <form ref={form} onSubmit={onSubmit} className="space-y-4 text-sm" aria-label="Decision" noValidate>
      <FormNotices message={message} saved={saved} />
      <VerdictPicker name="decision-verdict" value={valid} onChange={setValid} error={errors.valid} />
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
        <label htmlFor="decision-reason" className="block font-medium text-slate-700">
          Reason <span className="font-normal text-slate-500">(required)</span>{" "}
          <kbd aria-hidden="true" className="rounded bg-slate-100 px-1 font-mono text-xs text-slate-600">
            N
          </kbd>
        </label>
        <textarea
          id="decision-reason"
          ref={reasonField}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          onKeyDown={submitOnCtrlEnter}
          rows={4}
          aria-invalid={Boolean(errors.reason)}
          className="block w-full rounded-md border-0 px-2.5 py-1.5 ring-1 ring-slate-300 focus:ring-2 focus:ring-indigo-500"
          placeholder="Why this verdict? Ctrl+Enter submits, Esc leaves the field."
        />
        {errors.reason ? (
          <p className="text-xs text-red-700" role="alert">
            {errors.reason}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={isPending} title="Shortcut: Enter">
        {isPending ? "Saving…" : current ? `Revise decision (Enter)` : "Decide (Enter)"}
      </Button>
    </form>
  );
}
