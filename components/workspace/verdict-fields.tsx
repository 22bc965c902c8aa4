"use client";

import type { RefObject } from "react";

import { ErrorNote, FieldError } from "@/components/ui/primitives";
import type { FieldErrors } from "@/lib/actions/result";

import type { WorkspaceCategory } from "./category-checklist";
import { CategoryField } from "./category-field";
import { useVerdictKeys } from "./use-verdict-keys";

/**
 * A verdict form's verdict and error categories over the form's own state, shared by the label and
 * the decision: which categories the verdict allows (a valid verdict leaves out those that make a
 * record invalid), the keys (useVerdictKeys), and the fields' props for VerdictFields.
 */
export function useVerdictFields({
  categories,
  valid,
  selected,
  onVerdict,
  onSelect,
  textField,
  form,
}: {
  categories: WorkspaceCategory[];
  valid: boolean | null;
  selected: string[];
  onVerdict: (valid: boolean) => void;
  onSelect: (change: (selected: string[]) => string[]) => void;
  textField: RefObject<HTMLTextAreaElement | null>;
  form: RefObject<HTMLFormElement | null>;
}) {
  const isAllowed = (key: string) =>
    valid !== true || !categories.find((category) => category.key === key)?.invalidating;
  const onToggle = (key: string) => {
    if (!isAllowed(key)) return;
    onSelect((list) => (list.includes(key) ? list.filter((entry) => entry !== key) : [...list, key]));
  };
  const { isFinderOpen, closeFinder } = useVerdictKeys({ categories, onVerdict, onToggle, textField, form });
  return {
    /** The categories to send: those chosen that the verdict allows. */
    chosen: selected.filter(isAllowed),
    fields: { categories, valid, selected, onVerdict, isAllowed, onToggle, isFinderOpen, onCloseFinder: closeFinder },
  };
}

/** The verdict and its error categories, with the errors the action's schema gave them. */
export function VerdictFields({
  name,
  errors,
  fields,
}: {
  name: string;
  errors: FieldErrors;
  fields: ReturnType<typeof useVerdictFields>["fields"];
}) {
  const { valid, onVerdict, ...categoryField } = fields;
  return (
    <>
      <VerdictPicker name={name} value={valid} onChange={onVerdict} error={errors.valid?.[0]} />
      <CategoryField {...categoryField} error={errors.categories?.[0]} />
    </>
  );
}

/** Valid / Invalid as two radio buttons with their V and I shortcuts shown; shared by labels and decisions. */
export function VerdictPicker({
  name,
  value,
  onChange,
  error,
}: {
  name: string;
  value: boolean | null;
  onChange: (valid: boolean) => void;
  error?: string;
}) {
  return (
    <fieldset>
      <legend className="mb-1 font-medium text-slate-700">Verdict</legend>
      <div className="flex gap-2">
        {([true, false] as const).map((option) => (
          <label
            key={String(option)}
            className={`flex cursor-pointer items-center gap-2 rounded-md px-3 py-1.5 ring-1 focus-within:ring-2 focus-within:ring-indigo-500 ${value === option ? (option ? "bg-emerald-50 ring-emerald-400" : "bg-red-50 ring-red-400") : "ring-slate-300"}`}
          >
            <input
              type="radio"
              name={name}
              checked={value === option}
              onChange={() => onChange(option)}
              className="size-4"
            />
            {option ? "Valid" : "Invalid"}{" "}
            <kbd aria-hidden="true" className="rounded bg-slate-100 px-1 font-mono text-xs text-slate-600">
              {option ? "V" : "I"}
            </kbd>
          </label>
        ))}
      </div>
      <FieldError error={error} className="mt-1" />
    </fieldset>
  );
}

/** The form's error and success messages. */
export function FormNotices({ message, saved }: { message?: string; saved?: string }) {
  return (
    <>
      {message ? <ErrorNote>{message}</ErrorNote> : null}
      {saved ? (
        <p className="rounded-md bg-emerald-50 px-3 py-2 text-emerald-900 ring-1 ring-emerald-200" role="status">
          {saved}
        </p>
      ) : null}
    </>
  );
}

/**
 * The label's note or the decision's reason: N focuses it (useVerdictKeys, through `ref`), and
 * its keys are submitOnCtrlEnter's.
 */
export function NoteField({
  id,
  label,
  isRequired,
  value,
  onChange,
  rows,
  placeholder,
  error,
  ref,
}: {
  id: string;
  label: string;
  isRequired: boolean;
  value: string;
  onChange: (value: string) => void;
  rows: number;
  placeholder: string;
  error?: string;
  ref: React.Ref<HTMLTextAreaElement>;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block font-medium text-slate-700">
        {label} <span className="font-normal text-slate-500">{isRequired ? "(required)" : "(optional)"}</span>{" "}
        <kbd aria-hidden="true" className="rounded bg-slate-100 px-1 font-mono text-xs text-slate-600">
          N
        </kbd>
      </label>
      <textarea
        id={id}
        ref={ref}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={submitOnCtrlEnter}
        rows={rows}
        aria-invalid={Boolean(error)}
        className="block w-full rounded-md border-0 px-2.5 py-1.5 ring-1 ring-slate-300 focus:ring-2 focus:ring-indigo-500"
        placeholder={placeholder}
      />
      <FieldError error={error} />
    </div>
  );
}

/** A textarea's keys: Ctrl/Cmd+Enter submits its form, Esc leaves the field (so shortcuts work again). */
export function submitOnCtrlEnter(event: React.KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    event.currentTarget.form?.requestSubmit();
  } else if (event.key === "Escape") {
    event.currentTarget.blur();
  }
}
