"use client";

import Editor, { loader, type OnMount } from "@monaco-editor/react";
import { useEffect, useRef, useState } from "react";

// Monaco is served by the app from /monaco (copied at install), never from a CDN.
loader.config({ paths: { vs: "/monaco/vs" } });

type MonacoEditor = Parameters<OnMount>[0];

const MIN_HEIGHT = 38;

/** Marks one whole line as failing (or clears the mark) and scrolls to it; returns the decoration ids. */
function markLine(instance: MonacoEditor, previous: string[], line: number | null): string[] {
  const next = instance.deltaDecorations(
    previous,
    line
      ? [
          {
            range: { startLineNumber: line, startColumn: 1, endLineNumber: line, endColumn: 1 },
            options: { isWholeLine: true, className: "failing-line", linesDecorationsClassName: "failing-line-margin" },
          },
        ]
      : [],
  );
  if (line) instance.revealLineInCenterIfOutsideViewport(line);
  return next;
}

/**
 * Calls `run` once the browser has nothing else to do (at the latest after `timeoutMs`); returns
 * the cancel. Browsers without requestIdleCallback get a short timer.
 */
function whenIdle(run: () => void, timeoutMs: number): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(run, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(run, 30);
  return () => window.clearTimeout(handle);
}

/**
 * Read-only code in Monaco, as tall as its content up to the box it sits in (then it scrolls
 * inside), so a two-line solution takes two lines and a long one fills its pane. `highlightLine`
 * marks a failing line and scrolls to it.
 *
 * The code is shown as plain text at once and Monaco takes over when the browser is idle: building
 * an editor takes tens of milliseconds of the main thread, and the annotator's next item should be
 * on screen before that, not after.
 */
export function FitCode({
  code,
  language,
  label,
  highlightLine,
  testId,
}: {
  code: string;
  language: string;
  label: string;
  highlightLine?: number | null;
  testId: string;
}) {
  const [height, setHeight] = useState<number | null>(null);
  const [isEditorWanted, setEditorWanted] = useState(false);
  const [isEditorShown, setEditorShown] = useState(false);
  const editor = useRef<MonacoEditor | null>(null);
  const decorations = useRef<string[]>([]);
  // Monaco owns its DOM, so the mark is applied imperatively from the latest wanted line.
  const markedLine = useRef<number | null>(null);

  const onMount: OnMount = (instance, monaco) => {
    editor.current = instance;
    const fit = () => setHeight(Math.max(MIN_HEIGHT, instance.getContentHeight()));
    instance.onDidContentSizeChange(fit);
    fit();
    // Esc leaves the editor so the page's single-key shortcuts work again.
    instance.addCommand(
      monaco.KeyCode.Escape,
      () => (document.activeElement as HTMLElement | null)?.blur(),
      "editorTextFocus && !findWidgetVisible",
    );
    // The editor wrapper sets a read-only editor's value again right after mounting, and setting a
    // value drops the model's decorations: mark again whenever the content is replaced.
    const mark = () => (decorations.current = markLine(instance, decorations.current, markedLine.current));
    instance.onDidChangeModelContent(mark);
    mark();
    // The editor draws its lines in the next frame; the text stays until then.
    requestAnimationFrame(() => setEditorShown(true));
  };

  useEffect(() => whenIdle(() => setEditorWanted(true), 500), []);

  useEffect(() => {
    markedLine.current = highlightLine ?? null;
    if (editor.current) decorations.current = markLine(editor.current, decorations.current, markedLine.current);
  }, [highlightLine]);

  return (
    <div
      className="relative max-h-[60vh] min-h-0 overflow-hidden rounded-md ring-1 ring-slate-200 lg:max-h-full"
      style={{ height: height ?? Math.min(400, MIN_HEIGHT + 19 * code.split("\n").length) }}
      aria-label={label}
      data-testid={testId}
    >
      {isEditorWanted ? (
        <Editor
          height="100%"
          language={language}
          value={code}
          theme="vs"
          loading={null}
          onMount={onMount}
          options={{
            readOnly: true,
            domReadOnly: true,
            minimap: { enabled: false },
            scrollBeyondLastLine: false,
            fontSize: 13,
            lineHeight: 19,
            wordWrap: "on",
            automaticLayout: true,
            padding: { top: 4, bottom: 4 },
            scrollbar: { alwaysConsumeMouseWheel: false },
            ariaLabel: label,
          }}
        />
      ) : null}
      {isEditorShown ? null : (
        // Laid out like the editor's text (13 px on 19 px lines, wrapped, past its line numbers) so
        // nothing moves when Monaco takes over.
        <pre
          className="absolute inset-0 overflow-hidden bg-white pt-1 pr-3 pl-[65px] font-mono text-[13px] leading-[19px] break-words whitespace-pre-wrap text-slate-800"
          data-testid={`${testId}-text`}
        >
          {code}
        </pre>
      )}
    </div>
  );
}
