"use client";

import { CategoryChecklist, type WorkspaceCategory } from "./category-checklist";
import { CategoryPicker } from "./category-picker";

/** A verdict form's categories: the finder (open after C, offering only what the verdict allows) above the checklist. */
export function CategoryField({
  categories,
  selected,
  isAllowed,
  onToggle,
  error,
  isFinderOpen,
  onCloseFinder,
}: {
  categories: WorkspaceCategory[];
  selected: string[];
  isAllowed: (key: string) => boolean;
  onToggle: (key: string) => void;
  error?: string;
  isFinderOpen: boolean;
  onCloseFinder: () => void;
}) {
  return (
    <>
      {isFinderOpen ? (
        <CategoryPicker
          categories={categories.filter((category) => isAllowed(category.key))}
          selected={selected}
          onToggle={onToggle}
          onClose={onCloseFinder}
        />
      ) : null}
      <CategoryChecklist
        categories={categories}
        selected={selected}
        isAllowed={isAllowed}
        onToggle={onToggle}
        error={error}
      />
    </>
  );
}
