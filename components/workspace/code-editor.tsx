"use client";

import Editor, { loader, type OnMount } from "@monaco-editor/react";

// Monaco is served by the app from /monaco (copied at install), never from a CDN.
loader.config({ paths: { vs: "/monaco/vs" } });

/**
 * An editable Monaco editor. Esc (with no widget open) leaves the editor so page shortcuts work again.
 * Uncontrolled: `initialValue` seeds it once (remount it with a new key to reset it) and each change
 * is reported through `onChange`; a value handed back on every render could overwrite newer keys.
 */
export function CodeEditor({
  initialValue,
  onChange,
  language,
  label,
  height = 280,
}: {
  initialValue: string;
  onChange: (value: string) => void;
  language: string;
  label: string;
  height?: number;
}) {
  const onMount: OnMount = (editor, monaco) => {
    editor.addCommand(
      monaco.KeyCode.Escape,
      () => (document.activeElement as HTMLElement | null)?.blur(),
      "editorTextFocus && !suggestWidgetVisible && !findWidgetVisible && !parameterHintsVisible && !renameInputVisible",
    );
  };
  return (
    <div
      className="overflow-hidden rounded-md ring-1 ring-slate-300 focus-within:ring-2 focus-within:ring-indigo-500"
      aria-label={label}
      data-testid={`editor-${label.toLowerCase().replaceAll(" ", "-")}`}
    >
      <Editor
        height={height}
        language={language}
        defaultValue={initialValue}
        onChange={(next) => onChange(next ?? "")}
        onMount={onMount}
        theme="vs"
        loading={<pre className="p-3 font-mono text-xs text-slate-500">Loading editor…</pre>}
        options={{
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 13,
          wordWrap: "on",
          automaticLayout: true,
          ariaLabel: label,
        }}
      />
    </div>
  );
}
