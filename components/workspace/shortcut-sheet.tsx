"use client";

import { useRef } from "react";

import { Button } from "@/components/ui/primitives";

import { useHotkeys } from "./use-hotkeys";

type Shortcuts = [keys: string, what: string][];

const WORKSPACE: Shortcuts = [
  ["V", "Mark valid"],
  ["I", "Mark invalid"],
  ["1 – 9", "Toggle the numbered error category"],
  ["C", "Find any error category by typing part of its name (↑/↓ choose, Enter toggles)"],
  ["N", "Write the note"],
  ["Enter", "Submit the label and go to the next item"],
  ["Ctrl/⌘ + Enter", "Submit from inside the note"],
  ["R", "Run the demo and the full test"],
  ["E", "Edit & run a scratch copy (press again to run it)"],
  ["F", "Show the code full screen"],
  ["G", "Open or close the campaign's guidelines"],
  ["S", "Skip: type a reason, Enter confirms"],
  ["Esc", "Leave a text field or editor; close this sheet or a dialog"],
  ["?", "Show these shortcuts"],
];

// The adjudication page decides with the workspace's keys (useVerdictKeys), and steps through its queue.
const ADJUDICATION: Shortcuts = [
  ["V", "Decide valid"],
  ["I", "Decide invalid"],
  ["1 – 9", "Toggle the numbered error category"],
  ["C", "Find any error category by typing part of its name (↑/↓ choose, Enter toggles)"],
  ["N", "Write the reason"],
  ["Enter", "Record the decision"],
  ["Ctrl/⌘ + Enter", "Record it from inside the reason"],
  ["J / K", "Next / previous item in the queue"],
  ["R", "Run the demo and the full test"],
  ["Esc", "Leave a text field; close this sheet or a dialog"],
  ["?", "Show these shortcuts"],
];

// The blind check of a repair labels the revised record with the same keys, and runs its own tests.
const CHECK: Shortcuts = [
  ["V", "Valid: accept the revision"],
  ["I", "Invalid: reject the revision"],
  ["1 – 9", "Toggle the numbered error category"],
  ["C", "Find any error category by typing part of its name (↑/↓ choose, Enter toggles)"],
  ["N", "Write the note"],
  ["Enter", "Submit the check"],
  ["Ctrl/⌘ + Enter", "Submit from inside the note"],
  ["R", "Run the revised demo and full test"],
  ["Esc", "Leave a text field; close this sheet or a dialog"],
  ["?", "Show these shortcuts"],
];

const SHEETS = { workspace: WORKSPACE, adjudication: ADJUDICATION, check: CHECK } as const;

/** The keyboard shortcut sheet of the workspace, the adjudication page or a repair's blind check: a modal dialog opened with ? (or its button), closed with Esc. */
export function ShortcutSheet({ page = "workspace" }: { page?: keyof typeof SHEETS }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const open = () => dialog.current?.showModal();
  useHotkeys({ "?": open });

  return (
    <>
      <Button variant="secondary" onClick={open} className="px-2 py-1 text-xs" aria-haspopup="dialog">
        Shortcuts (?)
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby="shortcut-title"
        className="m-auto w-full max-w-md rounded-lg p-0 shadow-xl ring-1 ring-slate-200 backdrop:bg-slate-900/40"
      >
        <div className="p-5">
          <h2 id="shortcut-title" className="text-base font-semibold text-slate-900">
            Keyboard shortcuts
          </h2>
          <p className="mt-1 text-xs text-slate-500">
            Single keys work whenever you are not typing in a field or an editor.
          </p>
          <table className="mt-3 w-full text-sm">
            <tbody>
              {SHEETS[page].map(([keys, what]) => (
                <tr key={keys} className="border-t border-slate-100">
                  <td className="py-1.5 pr-3 whitespace-nowrap">
                    <kbd className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs ring-1 ring-slate-300">
                      {keys}
                    </kbd>
                  </td>
                  <td className="py-1.5 text-slate-700">{what}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <form method="dialog" className="mt-4 text-right">
            <Button type="submit" autoFocus>
              Close
            </Button>
          </form>
        </div>
      </dialog>
    </>
  );
}
