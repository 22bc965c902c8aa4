"use client";

import { useState } from "react";

import { filterCategories } from "@/lib/annotation/category-filter";

import type { WorkspaceCategory } from "./category-checklist";

/**
 * Type-to-filter category picker, opened with C: type part of a name, ↑/↓ to choose, Enter
 * toggles the chosen category and closes, Esc closes. Reaches every category, not just 1–9.
 */
export function CategoryPicker({
  categories,
  selected,
  onToggle,
  onClose,
}: {
  categories: WorkspaceCategory[];
  selected: string[];
  onToggle: (key: string) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const matches = filterCategories(categories, query);
  const current = matches[Math.min(active, matches.length - 1)];

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((index) => (Math.min(index, matches.length - 1) + step + matches.length) % Math.max(1, matches.length));
    } else if (event.key === "Enter") {
      event.preventDefault();
      event.stopPropagation();
      if (current) onToggle(current.key);
      onClose();
    } else if (event.key === "Escape") {
      event.preventDefault();
      onClose();
    }
  }

  return (
    <div className="relative">
      <input
        autoFocus
        role="combobox"
        aria-label="Find a category"
        aria-expanded="true"
        aria-controls="category-picker-list"
        aria-activedescendant={current ? `category-option-${current.key}` : undefined}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        onBlur={onClose}
        placeholder="Type to find a category; Enter toggles it, Esc closes"
        className="block w-full rounded-md border-0 px-2.5 py-1 text-sm ring-2 ring-indigo-500"
      />
      <ul
        id="category-picker-list"
        role="listbox"
        aria-label="Matching categories"
        className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-slate-200"
      >
        {matches.map((category) => (
          <li
            key={category.key}
            id={`category-option-${category.key}`}
            role="option"
            aria-selected={category === current}
            onMouseDown={(event) => {
              event.preventDefault();
              onToggle(category.key);
              onClose();
            }}
            className={`flex cursor-pointer justify-between gap-2 px-2.5 py-1 ${category === current ? "bg-indigo-50 text-indigo-900" : ""}`}
          >
            <span>{category.label}</span>
            {selected.includes(category.key) ? <span className="text-xs text-emerald-700">ticked</span> : null}
          </li>
        ))}
        {matches.length === 0 ? <li className="px-2.5 py-1 text-slate-500">No category matches.</li> : null}
      </ul>
    </div>
  );
}
