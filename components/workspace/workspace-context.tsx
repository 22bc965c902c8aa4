"use client";

import { createContext, type ReactNode, useContext, useMemo, useState, useSyncExternalStore } from "react";

import type { CodeHighlight } from "@/lib/runs/failure-line";

type WorkspaceState = {
  highlight: CodeHighlight | null;
  setHighlight: (highlight: CodeHighlight | null) => void;
  /** The item whose first blind label just revealed its critic in this page (null: none). */
  revealedItemId: string | null;
  announceReveal: (itemId: string) => void;
  isGuidelinesOpen: boolean;
  toggleGuidelines: () => void;
};

const WorkspaceContext = createContext<WorkspaceState | null>(null);

/**
 * State the workspace's panes share: the failing line a run points at (at first, the stored run's,
 * so the item opens on it), whether the guidelines are open, and a blind reveal the label form
 * started, which the critic answers by taking focus with its confirmation once it arrives.
 */
export function WorkspaceProvider({
  initialHighlight = null,
  children,
}: {
  initialHighlight?: CodeHighlight | null;
  children: ReactNode;
}) {
  const [highlight, setHighlight] = useState<CodeHighlight | null>(initialHighlight);
  const [revealedItemId, announceReveal] = useState<string | null>(null);
  const [isGuidelinesOpen, setGuidelinesOpen] = useState(false);
  // False in the server's HTML, true once hydrated in the browser.
  const isReady = useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
  const value = useMemo(
    () => ({
      highlight,
      setHighlight,
      revealedItemId,
      announceReveal,
      isGuidelinesOpen,
      toggleGuidelines: () => setGuidelinesOpen((open) => !open),
    }),
    [highlight, revealedItemId, isGuidelinesOpen],
  );
  return (
    <WorkspaceContext.Provider value={value}>
      {/* data-ready tells tests (and the benchmark) that the page is hydrated and answers keys. */}
      <div data-testid="workspace" data-ready={isReady ? "true" : "false"}>
        {children}
      </div>
    </WorkspaceContext.Provider>
  );
}

export function useWorkspace(): WorkspaceState {
  const state = useContext(WorkspaceContext);
  if (!state) throw new Error("useWorkspace outside WorkspaceProvider");
  return state;
}
