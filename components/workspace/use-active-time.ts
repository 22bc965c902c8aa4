"use client";

import { useCallback, useEffect, useRef } from "react";

/** Counts the milliseconds the tab was visible since mount or the last `reset()`; `peek()` reads the count. */
export function useActiveTime() {
  const accumulated = useRef(0);
  const visibleSince = useRef<number | null>(null);

  useEffect(() => {
    visibleSince.current = document.visibilityState === "visible" ? performance.now() : null;
    const onVisibility = () => {
      if (document.visibilityState === "visible") {
        visibleSince.current ??= performance.now();
      } else if (visibleSince.current !== null) {
        accumulated.current += performance.now() - visibleSince.current;
        visibleSince.current = null;
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, []);

  const peek = useCallback(
    () =>
      Math.round(accumulated.current + (visibleSince.current === null ? 0 : performance.now() - visibleSince.current)),
    [],
  );
  const reset = useCallback(() => {
    accumulated.current = 0;
    visibleSince.current = document.visibilityState === "visible" ? performance.now() : null;
  }, []);
  return { peek, reset };
}
