"use client";

import Editor, { loader } from "@monaco-editor/react";

// Monaco is served by the app from /monaco (copied at install), never from a CDN.
loader.config({ paths: { vs: "/monaco/vs" } });

/** A read-only Monaco editor with the record language's highlighting. */
export function CodeViewer({
  code,
  language,
  label,
  height = 320,
}: {
  code: string;
  language: string;
  label: string;
  height?: number;
}) {
  return (
    <div
      className="overflow-hidden rounded-md ring-1 ring-slate-200"
      aria-label={label}
      data-testid={`code-${label.toLowerCase().replaceAll(" ", "-")}`}
    >
      <Editor
        height={height}
        language={language}
        value={code}
        theme="vs"
        loading={<pre className="p-3 font-mono text-xs text-slate-500">Loading editor…</pre>}
        options={{
          readOnly: true,
          domReadOnly: true,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 13,
          wordWrap: "on",
          automaticLayout: true,
        }}
      />
    </div>
  );
}
