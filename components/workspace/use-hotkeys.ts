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
      const target = keyTarget(event);
      if (isTypingTarget(target) || isTypingTarget(document.activeElement)) return;
      if (document.querySelector("dialog[open]")) return;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      if (key === "Enter" && target?.closest("button, a, summary, [role=separator]")) return;
      const handler = latest.current[key];
      if (!handler) return;
      event.preventDefault();
      handler(event);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [enabled]);
}

/**
 * The element a key press is for: its target, or none (the page) when that sits in a closed dialog.
 * Focus stays on a dialog's button after Esc closes it until the page next renders, so an Enter
 * pressed right after closing the shortcut sheet reached its hidden Close button and did nothing.
 */
function keyTarget(event: KeyboardEvent): HTMLElement | null {
  const target = event.target;
  if (!(target instanceof HTMLElement) || target.closest("dialog:not([open])")) return null;
  return target;
}
