"use client";

import { useEffect, useRef, useState } from "react";

import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { runRecordSchema } from "@/lib/validation/runs";

import type { RunRecordAction } from "@/components/records/run-result";
import { CodeEditor } from "./code-editor";
import { RunResult, type RunView } from "@/components/records/run-result";
import { useHotkeys } from "./use-hotkeys";

/**
 * Edit & run: editable copies of the solution and the full test, run together as a scratch run.
 * The record itself never changes. Keyboard: E opens the editors and focuses Run; E again runs.
 */
export function ScratchRunner({
  recordId,
  language,
  solution,
  test,
  canRun,
  onRun,
}: {
  recordId: number;
  language: string;
  solution: string;
  test: string;
  canRun: boolean;
  onRun: RunRecordAction;
}) {
  const [isOpen, setOpen] = useState(false);
  // The editors own their text: the run reads the latest of each from this ref when it starts.
  // `seed` is what an editor opens with (on open, after Close, after Reset); `resets` remounts them.
  const code = useRef({ solution, test });
  const [seed, setSeed] = useState({ solution, test });
  const [resets, setResets] = useState(0);
  const [result, setResult] = useState<RunView>();
  const { submit, isPending: isRunning, message, fieldErrors } = useAction();
  // A scratch run's refusal is about the code: the solution's own error says more than the form's.
  const error = fieldErrors.solution?.[0] ?? message;
  const runButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (isOpen) runButton.current?.focus();
  }, [isOpen]);

  async function run() {
    const outcome = await submit(runRecordSchema, { recordId, kind: "scratch", ...code.current }, onRun);
    if (outcome.ok) setResult(outcome.data.runs[0]);
  }

  useHotkeys({ e: () => (isOpen ? void run() : setOpen(true)) }, canRun);

  if (!canRun) return <p className="text-sm text-slate-500">Your role cannot run code.</p>;
  if (!isOpen) {
    return (
      <div className="flex items-center gap-3 text-sm">
        <Button variant="secondary" onClick={() => setOpen(true)} title="Shortcut: E">
          Edit &amp; run (E)
        </Button>
        <span className="text-slate-500">Probe a doubt on a scratch copy; the record is never changed.</span>
      </div>
    );
  }
  return (
    <div className="space-y-3 text-sm">
      <p className="text-slate-600">
        Scratch copies: edit freely, then run the solution against the edited full test. Esc leaves an editor.
      </p>
      <CodeEditor
        key={`solution-${resets}`}
        label="Scratch solution"
        language={language}
        initialValue={seed.solution}
        onChange={(value) => (code.current = { ...code.current, solution: value })}
        height={220}
      />
      <CodeEditor
        key={`test-${resets}`}
        label="Scratch full test"
        language={language}
        initialValue={seed.test}
        onChange={(value) => (code.current = { ...code.current, test: value })}
        height={220}
      />
      <div className="flex flex-wrap gap-2">
        <Button ref={runButton} onClick={() => void run()} disabled={isRunning} title="Shortcut: E">
          {isRunning ? "Running…" : "Run edited code (E)"}
        </Button>
        <Button
          variant="secondary"
          onClick={() => {
            code.current = { solution, test };
            setSeed(code.current);
            setResets((count) => count + 1);
          }}
          disabled={isRunning}
        >
          Reset to the record
        </Button>
        <Button
          variant="secondary"
          onClick={() => {
            setSeed(code.current);
            setOpen(false);
          }}
        >
          Close
        </Button>
      </div>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {result ? <RunResult result={result} title="Scratch run" testId="scratch-result" /> : null}
    </div>
  );
}
