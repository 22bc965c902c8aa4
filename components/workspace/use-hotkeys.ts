"use client";

import { useEffect, useRef } from "react";

const NON_TEXT_INPUTS = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"]);

/** Whether a key press is meant for the element under focus: text fields, selects, Monaco, editable content. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest("textarea, select, .monaco-editor, [contenteditable=''], [contenteditable='true']")) return true;
  return target instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(target.type);
}

/**
 * Page-wide single-key shortcuts. Keys are `event.key` values, letters lower-cased ("v", "1", "?",
 * "Enter"). Ignored while typing, with Ctrl/Cmd/Alt held, while a modal dialog is open, and for
 * Enter on a focused button or link (which activates it natively).
 */
export function useHotkeys(handlers: Record<string, (event: KeyboardEvent) => void>, enabled = true) {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey || event.repeat) return;
      if (isTypingTarget(event.target) || document.querySelector("dialog[open]")) return;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      if (
        key === "Enter" &&
        event.target instanceof HTMLElement &&
        event.target.closest("button, a, summary, [role=separator]")
      )
        return;
      const handler = latest.current[key];
      if (!handler) return;
      event.preventDefault();
      handler(event);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [enabled]);
}
