"use client";

import { FieldError } from "@/components/ui/primitives";

export type WorkspaceCategory = { key: string; label: string; description: string; invalidating: boolean };

/** The campaign's error categories as checkboxes; the first nine are numbered for the 1–9 keys, C finds any. */
export function CategoryChecklist({
  categories,
  selected,
  isAllowed,
  onToggle,
  error,
}: {
  categories: WorkspaceCategory[];
  selected: string[];
  isAllowed: (key: string) => boolean;
  onToggle: (key: string) => void;
  error?: string;
}) {
  return (
    <fieldset>
      <legend className="mb-0.5 font-medium text-slate-700">
        Error categories{" "}
        <span className="font-normal text-xs text-slate-500">
          1–9 toggle · <kbd className="rounded bg-slate-100 px-1 font-mono">C</kbd> finds any
        </span>
      </legend>
      <ul className="grid gap-x-3 text-[13px] sm:grid-cols-2">
        {categories.map((category, index) => {
          const isEnabled = isAllowed(category.key);
          return (
            <li key={category.key}>
              <label
                className={`flex items-start gap-2 rounded px-1 py-px ${isEnabled ? "cursor-pointer hover:bg-slate-50" : "text-slate-400"}`}
                title={category.description}
              >
                <input
                  type="checkbox"
                  className="mt-0.5 size-4"
                  checked={isEnabled && selected.includes(category.key)}
                  disabled={!isEnabled}
                  onChange={() => onToggle(category.key)}
                />
                <span className="w-4 shrink-0 font-mono text-xs leading-5 text-slate-500">
                  {index < 9 ? index + 1 : ""}
                </span>
                <span>
                  {category.label}
                  {category.invalidating ? null : (
                    <span className="ml-1 text-xs text-slate-500">(allowed on valid)</span>
                  )}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      <FieldError error={error} className="mt-1" />
    </fieldset>
  );
}
