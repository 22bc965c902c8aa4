"use client";

import { type RefObject, useState } from "react";

import type { WorkspaceCategory } from "./category-checklist";
import { holdKeysUntilTextFocus } from "./key-hold";
import { useHotkeys } from "./use-hotkeys";

/**
 * The keys of a verdict form, shared by the annotator's label and the reviewer's decision: V and I
 * set the verdict, 1–9 toggle the first nine categories, C opens the finder for any category, N goes
 * to the form's text field (the note, or the reason), Enter submits. Returns whether the finder is
 * open and how to close it (render it with CategoryField).
 */
export function useVerdictKeys({
  categories,
  onVerdict,
  onToggle,
  textField,
  form,
}: {
  categories: WorkspaceCategory[];
  onVerdict: (valid: boolean) => void;
  onToggle: (key: string) => void;
  textField: RefObject<HTMLTextAreaElement | null>;
  form: RefObject<HTMLFormElement | null>;
}): { isFinderOpen: boolean; closeFinder: () => void } {
  const [isFinderOpen, setFinderOpen] = useState(false);
  const digitKeys = Object.fromEntries(
    categories.slice(0, 9).map((category, index) => [String(index + 1), () => onToggle(category.key)]),
  );
  useHotkeys({
    v: () => onVerdict(true),
    i: () => onVerdict(false),
    n: () => textField.current?.focus(),
    c: () => {
      // The finder's field takes focus once rendered: what is typed until then is kept for it.
      if (!isFinderOpen) holdKeysUntilTextFocus();
      setFinderOpen(true);
    },
    Enter: () => form.current?.requestSubmit(),
    ...digitKeys,
  });
  return { isFinderOpen, closeFinder: () => setFinderOpen(false) };
}
