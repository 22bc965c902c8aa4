"use client";

import { ErrorNote } from "@/components/ui/primitives";

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
      {error ? (
        <p className="mt-1 text-xs text-red-700" role="alert">
          {error}
        </p>
      ) : null}
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

/** A textarea's keys: Ctrl/Cmd+Enter submits its form, Esc leaves the field (so shortcuts work again). */
export function submitOnCtrlEnter(event: React.KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    event.currentTarget.form?.requestSubmit();
  } else if (event.key === "Escape") {
    event.currentTarget.blur();
  }
}
