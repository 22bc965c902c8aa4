"use client";

import { useEffect, useRef } from "react";

import { isTypingTarget } from "./key-hold";

/**
 * Page-wide single-key shortcuts. Keys are `event.key` values, letters lower-cased ("v", "1", "?",
 * "Enter"). Ignored while typing (the event's target or the focused element is a text field, select,
 * Monaco's textarea or editable content), with Ctrl/Cmd/Alt held, while a modal dialog is open, and
 * for Enter on a focused button or link (which activates it natively). Keys pressed while focus is
 * on its way to a field never get here: key-hold.ts keeps them and types them into it.
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
      if (isTypingTarget(event.target) || isTypingTarget(document.activeElement)) return;
      if (document.querySelector("dialog[open]")) return;
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
