"use client";

import { useRef, useState } from "react";

import { Button } from "@/components/ui/primitives";

import { FitCode } from "./fit-code";
import { useHotkeys } from "./use-hotkeys";
import { useWorkspace } from "./workspace-context";

type Code = { solution: string; demo: string; full: string };

/**
 * The record's code: the canonical solution beside its tests (Demo / Full as tabs), each editor as
 * tall as its content up to the pane. F opens the same view full screen; Esc closes it. A run's
 * failing line is marked and the right test tab is chosen.
 */
export function CodePanel({ code, language }: { code: Code; language: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [isFullScreen, setFullScreen] = useState(false);
  const open = () => {
    setFullScreen(true);
    dialog.current?.showModal();
  };
  useHotkeys({ f: open });

  return (
    <section aria-label="Code" className="flex min-h-0 flex-1 flex-col">
      <CodeColumns
        code={code}
        language={language}
        actions={
          <Button
            variant="secondary"
            className="px-2 py-0.5 text-xs"
            onClick={open}
            aria-haspopup="dialog"
            title="Shortcut: F"
          >
            Full screen (F)
          </Button>
        }
      />
      <dialog
        ref={dialog}
        aria-label="Code"
        onClose={() => setFullScreen(false)}
        className="m-auto h-[94vh] w-[96vw] max-w-none rounded-lg p-3 shadow-xl backdrop:bg-slate-900/50"
      >
        {isFullScreen ? (
          <div className="flex h-full flex-col">
            <CodeColumns
              code={code}
              language={language}
              actions={
                <form method="dialog">
                  <Button type="submit" variant="secondary" className="px-2 py-0.5 text-xs">
                    Close (Esc)
                  </Button>
                </form>
              }
            />
          </div>
        ) : null}
      </dialog>
    </section>
  );
}

function CodeColumns({ code, language, actions }: { code: Code; language: string; actions: React.ReactNode }) {
  const { highlight } = useWorkspace();
  // The item opens on the test a stored failing run points at (the full test otherwise).
  const [test, setTest] = useState<"demo" | "full">(highlight?.file === "demo" ? "demo" : "full");
  // A newly marked failing test line switches to the test that failed.
  const [shownHighlight, setShownHighlight] = useState(highlight);
  if (highlight !== shownHighlight) {
    setShownHighlight(highlight);
    if (highlight && highlight.file !== "solution") setTest(highlight.file);
  }
  const lineIn = (file: "solution" | "demo" | "full") => (highlight?.file === file ? highlight.line : null);

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2 lg:grid lg:grid-cols-2 lg:grid-rows-[auto_minmax(0,1fr)]">
      <div className="flex h-7 items-center gap-2 text-sm lg:col-start-1 lg:row-start-1">
        <h2 className="font-semibold text-slate-800">Canonical solution</h2>
      </div>
      <div className="relative min-h-0 lg:col-start-1 lg:row-start-2">
        <div className="flex flex-col lg:absolute lg:inset-0">
          <FitCode
            code={code.solution}
            language={language}
            label="Canonical solution"
            testId="code-solution"
            highlightLine={lineIn("solution")}
          />
        </div>
      </div>
      <div className="flex h-7 items-center gap-1 text-sm lg:col-start-2 lg:row-start-1">
        <div role="tablist" aria-label="Tests" className="flex gap-1">
          {(["full", "demo"] as const).map((kind) => (
            <button
              key={kind}
              role="tab"
              type="button"
              aria-selected={test === kind}
              onClick={() => setTest(kind)}
              className={`rounded px-2 py-0.5 font-semibold ${test === kind ? "bg-indigo-50 text-indigo-800 ring-1 ring-indigo-200" : "text-slate-600 hover:bg-slate-100"}`}
            >
              {kind === "full" ? "Full test" : "Demo test"}
            </button>
          ))}
        </div>
        <span className="ml-auto">{actions}</span>
      </div>
      <div
        className="relative min-h-0 lg:col-start-2 lg:row-start-2"
        role="tabpanel"
        aria-label={test === "full" ? "Full test" : "Demo test"}
      >
        <div className="flex flex-col lg:absolute lg:inset-0">
          <FitCode
            key={test}
            code={test === "full" ? code.full : code.demo}
            language={language}
            label={test === "full" ? "Full test" : "Demo test"}
            testId="code-test"
            highlightLine={lineIn(test)}
          />
        </div>
      </div>
    </div>
  );
}
