"use client";

import { DiffEditor, loader, type DiffOnMount } from "@monaco-editor/react";
import { useEffect, useRef, useState } from "react";

// Monaco is served by the app from /monaco (copied at install), never from a CDN.
loader.config({ paths: { vs: "/monaco/vs" } });

const LINE_HEIGHT = 19;
const PADDING = 8;
/** Room to type below the last line: an editor is never shorter than five lines. */
const MIN_HEIGHT = PADDING + LINE_HEIGHT * 5;

const lineCount = (text: string) => text.split("\n").length;

/**
 * Monaco's diff view of one field: the current version on the left (read-only), the edited one on
 * the right. Side by side, so a one-character repair (121 → 120) shows on its own line.
 *
 * Uncontrolled: `initialModified` seeds the edited side once, and every change is reported through
 * `onChange`. Handing the text back as a prop on each render let a late render write older text
 * over keys typed meanwhile (41 characters typed at 9 a second kept 10).
 *
 * As tall as the longer side, with room for a few lines more while editing, up to 70% of the
 * window (then it scrolls inside): a two-line test is not put in a 260 px box, nor a long one cut to it.
 */
export function FieldDiffEditor({
  original,
  initialModified,
  onChange,
  language,
  label,
}: {
  original: string;
  initialModified: string;
  onChange: (value: string) => void;
  language: string;
  label: string;
}) {
  const [modified] = useState(initialModified);
  // Guessed from the line counts until Monaco measures its content.
  const [height, setHeight] = useState(
    PADDING + LINE_HEIGHT * Math.max(lineCount(original), lineCount(initialModified)),
  );
  const latestOnChange = useRef(onChange);
  useEffect(() => {
    latestOnChange.current = onChange;
  });
  const onMount: DiffOnMount = (editor) => {
    const edited = editor.getModifiedEditor();
    const current = editor.getOriginalEditor();
    edited.onDidChangeModelContent(() => latestOnChange.current(edited.getValue()));
    const fit = () => setHeight(Math.max(edited.getContentHeight(), current.getContentHeight()));
    edited.onDidContentSizeChange(fit);
    current.onDidContentSizeChange(fit);
    fit();
  };
  return (
    <div
      className="max-h-[70vh] overflow-hidden rounded-md ring-1 ring-slate-300 focus-within:ring-2 focus-within:ring-indigo-500"
      style={{ height: Math.max(MIN_HEIGHT, height) }}
      aria-label={label}
      data-testid={`diff-${label.toLowerCase().replaceAll(" ", "-")}`}
    >
      <DiffEditor
        height="100%"
        language={language}
        original={original}
        modified={modified}
        onMount={onMount}
        theme="vs"
        loading={<pre className="p-3 font-mono text-xs text-slate-500">Loading editor…</pre>}
        options={{
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 13,
          lineHeight: LINE_HEIGHT,
          padding: { top: PADDING / 2, bottom: PADDING / 2 },
          wordWrap: "on",
          automaticLayout: true,
          originalEditable: false,
          renderSideBySide: true,
          ariaLabel: label,
        }}
      />
    </div>
  );
}
