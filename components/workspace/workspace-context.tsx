"use client";

import { createContext, type ReactNode, useContext, useMemo, useState, useSyncExternalStore } from "react";

import type { SourceLine } from "@/lib/runs/failure-line";

/** A line to point at in the code pane: which test (or the solution) and its 1-based line. */
export type CodeHighlight = { file: "solution" | "demo" | "full"; line: number };

type WorkspaceState = {
  highlight: CodeHighlight | null;
  setHighlight: (highlight: CodeHighlight | null) => void;
  isGuidelinesOpen: boolean;
  toggleGuidelines: () => void;
};

const WorkspaceContext = createContext<WorkspaceState | null>(null);

/** State the workspace's panes share: the failing line a run points at, and whether the guidelines are open. */
export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const [highlight, setHighlight] = useState<CodeHighlight | null>(null);
  const [isGuidelinesOpen, setGuidelinesOpen] = useState(false);
  // False in the server's HTML, true once hydrated in the browser.
  const isReady = useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
  const value = useMemo(
    () => ({ highlight, setHighlight, isGuidelinesOpen, toggleGuidelines: () => setGuidelinesOpen((open) => !open) }),
    [highlight, isGuidelinesOpen],
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

/** Where a run's failing line sits for the code pane: a test line belongs to the test that ran. */
export function toHighlight(source: SourceLine, kind: string): CodeHighlight {
  return { file: source.part === "solution" ? "solution" : kind === "DEMO" ? "demo" : "full", line: source.line };
}
