"use client";

import Editor, { loader, type OnMount } from "@monaco-editor/react";
import { useState } from "react";

// Monaco is served by the app from /monaco (copied at install), never from a CDN.
loader.config({ paths: { vs: "/monaco/vs" } });

const LINE_HEIGHT = 19;
const PADDING = 8;

/**
 * A read-only Monaco editor with the record language's highlighting, as tall as its code up to 70%
 * of the window (then it scrolls inside): a two-line test takes two lines, a long one is not cut to
 * a fixed box. Before Monaco measures, the height is guessed from the line count.
 */
export function CodeViewer({ code, language, label }: { code: string; language: string; label: string }) {
  const [height, setHeight] = useState<number | null>(null);
  const onMount: OnMount = (instance) => {
    const fit = () => setHeight(instance.getContentHeight());
    instance.onDidContentSizeChange(fit);
    fit();
  };
  return (
    <div
      className="max-h-[70vh] overflow-hidden rounded-md ring-1 ring-slate-200"
      style={{ height: height ?? PADDING + LINE_HEIGHT * code.split("\n").length }}
      aria-label={label}
      data-testid={`code-${label.toLowerCase().replaceAll(" ", "-")}`}
    >
      <Editor
        height="100%"
        language={language}
        value={code}
        theme="vs"
        loading={<pre className="p-3 font-mono text-xs text-slate-500">Loading editor…</pre>}
        onMount={onMount}
        options={{
          readOnly: true,
          domReadOnly: true,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 13,
          lineHeight: LINE_HEIGHT,
          padding: { top: PADDING / 2, bottom: PADDING / 2 },
          wordWrap: "on",
          automaticLayout: true,
          scrollbar: { alwaysConsumeMouseWheel: false },
        }}
      />
    </div>
  );
}
