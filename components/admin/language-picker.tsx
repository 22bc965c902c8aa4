"use client";

import { LANGUAGE_LABELS, LANGUAGES, type Language } from "@/lib/records/languages";

/** Checkboxes for the 20 benchmark languages. */
export function LanguagePicker({ name, defaultValue = [] }: { name: string; defaultValue?: string[] }) {
  return (
    <fieldset className="grid grid-cols-3 gap-x-3 gap-y-1 text-sm">
      <legend className="sr-only">Languages</legend>
      {LANGUAGES.map((language: Language) => (
        <label key={language} className="flex items-center gap-1.5">
          <input
            type="checkbox"
            name={name}
            value={language}
            defaultChecked={defaultValue.includes(language)}
            className="size-3.5"
          />
          {LANGUAGE_LABELS[language]}
        </label>
      ))}
    </fieldset>
  );
}
