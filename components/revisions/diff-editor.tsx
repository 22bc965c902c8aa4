"use client";

import { DiffEditor, loader, type DiffOnMount } from "@monaco-editor/react";
import { useEffect, useRef, useState } from "react";

// Monaco is served by the app from /monaco (copied at install), never from a CDN.
loader.config({ paths: { vs: "/monaco/vs" } });

/**
 * Monaco's diff view of one field: the current version on the left (read-only), the edited one on
 * the right. Side by side, so a one-character repair (121 → 120) shows on its own line.
 *
 * Uncontrolled: `initialModified` seeds the edited side once, and every change is reported through
 * `onChange`. Handing the text back as a prop on each render let a late render write older text
 * over keys typed meanwhile (41 characters typed at 9 a second kept 10).
 */
export function FieldDiffEditor({
  original,
  initialModified,
  onChange,
  language,
  label,
  height = 260,
}: {
  original: string;
  initialModified: string;
  onChange: (value: string) => void;
  language: string;
  label: string;
  height?: number;
}) {
  const [modified] = useState(initialModified);
  const latestOnChange = useRef(onChange);
  useEffect(() => {
    latestOnChange.current = onChange;
  });
  const onMount: DiffOnMount = (editor) => {
    const edited = editor.getModifiedEditor();
    edited.onDidChangeModelContent(() => latestOnChange.current(edited.getValue()));
  };
  return (
    <div
      className="overflow-hidden rounded-md ring-1 ring-slate-300 focus-within:ring-2 focus-within:ring-indigo-500"
      aria-label={label}
      data-testid={`diff-${label.toLowerCase().replaceAll(" ", "-")}`}
    >
      <DiffEditor
        height={height}
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
