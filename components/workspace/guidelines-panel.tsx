"use client";

import type { ReactNode } from "react";

import { Button } from "@/components/ui/primitives";

import { useHotkeys } from "./use-hotkeys";
import { useWorkspace } from "./workspace-context";

/** The header button that opens and closes the campaign's guidelines; G does the same. */
export function GuidelinesToggle() {
  const { isGuidelinesOpen, toggleGuidelines } = useWorkspace();
  useHotkeys({ g: toggleGuidelines });
  return (
    <Button
      variant="secondary"
      onClick={toggleGuidelines}
      className="px-2 py-1 text-xs"
      aria-expanded={isGuidelinesOpen}
      aria-controls="campaign-guidelines-panel"
      title="Shortcut: G"
    >
      Guidelines (G)
    </Button>
  );
}

/** The campaign's guidelines (rendered Markdown, passed in from the server), shown while open. */
export function GuidelinesPanel({ children, isEmpty }: { children: ReactNode; isEmpty: boolean }) {
  const { isGuidelinesOpen, toggleGuidelines } = useWorkspace();
  if (!isGuidelinesOpen) return null;
  return (
    <section
      id="campaign-guidelines-panel"
      aria-label="Guidelines"
      className="max-h-72 overflow-auto rounded-lg bg-amber-50/40 p-3 text-sm shadow-sm ring-1 ring-amber-200"
    >
      <div className="mb-1 flex items-center justify-between">
        <h2 className="font-semibold text-slate-800">Campaign guidelines</h2>
        <button type="button" onClick={toggleGuidelines} className="text-xs text-slate-600 hover:underline">
          Close (G)
        </button>
      </div>
      {isEmpty ? (
        <p className="text-slate-500">
          This campaign has no guidelines yet. An admin writes them on the campaign page.
        </p>
      ) : (
        children
      )}
    </section>
  );
}
