"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";

const MIN = 25;
const MAX = 75;

const WIDE = "(min-width: 1024px)";

/** On wide screens, the height from the element's top to the bottom of the window (null otherwise). */
function useFillHeight(element: React.RefObject<HTMLElement | null>, isEnabled: boolean): number | null {
  const [height, setHeight] = useState<number | null>(null);
  useEffect(() => {
    if (!isEnabled) return;
    // The page's bottom padding stays in view too, so the page itself never scrolls.
    const main = element.current?.closest("main");
    const below = main ? parseFloat(getComputedStyle(main).paddingBottom) || 0 : 0;
    const measure = () => {
      const top = (element.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
      setHeight(window.matchMedia(WIDE).matches ? Math.max(360, Math.floor(window.innerHeight - top - below)) : null);
    };
    measure();
    window.addEventListener("resize", measure);
    // What sits above the panes can change height after load (a header row that wraps once the
    // lease time or a skip form appears): measure again whenever the page above them resizes.
    const above = new ResizeObserver(measure);
    const previous = element.current?.previousElementSibling;
    if (previous) above.observe(previous);
    if (main) above.observe(main.parentElement ?? main);
    return () => {
      window.removeEventListener("resize", measure);
      above.disconnect();
    };
  }, [element, isEnabled]);
  return height;
}

/**
 * Two side-by-side panes with a draggable (and arrow-key adjustable) splitter; stacks on narrow
 * screens. With `fill`, wide screens give both panes the window's remaining height and long
 * content scrolls inside its pane, not the page.
 */
export function SplitPane({
  left,
  right,
  initial = 55,
  fill = false,
}: {
  left: ReactNode;
  right: ReactNode;
  initial?: number;
  fill?: boolean;
}) {
  const [percent, setPercent] = useState(initial);
  const container = useRef<HTMLDivElement>(null);
  const height = useFillHeight(container, fill);

  function onPointerDown(event: React.PointerEvent<HTMLDivElement>) {
    event.preventDefault();
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    const onMove = (move: PointerEvent) => {
      const box = container.current?.getBoundingClientRect();
      if (box) setPercent(Math.min(MAX, Math.max(MIN, ((move.clientX - box.left) / box.width) * 100)));
    };
    const onUp = () => {
      handle.removeEventListener("pointermove", onMove);
      handle.removeEventListener("pointerup", onUp);
    };
    handle.addEventListener("pointermove", onMove);
    handle.addEventListener("pointerup", onUp);
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLDivElement>) {
    const step = event.key === "ArrowLeft" ? -5 : event.key === "ArrowRight" ? 5 : 0;
    if (!step) return;
    event.preventDefault();
    setPercent((value) => Math.min(MAX, Math.max(MIN, value + step)));
  }

  return (
    <div
      ref={container}
      className="flex flex-col gap-4 lg:flex-row lg:gap-0"
      style={{ "--split": `${percent}%`, ...(height ? { height } : {}) } as React.CSSProperties}
    >
      <div
        className={`min-w-0 lg:w-[var(--split)] lg:pr-2 ${fill ? `flex flex-col gap-3 ${height ? "lg:h-full" : ""}` : "space-y-4"}`}
      >
        {left}
      </div>
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize panes"
        aria-valuemin={MIN}
        aria-valuemax={MAX}
        aria-valuenow={Math.round(percent)}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onKeyDown={onKeyDown}
        className="hidden w-2 shrink-0 cursor-col-resize rounded bg-slate-200 hover:bg-indigo-300 focus:outline-none focus-visible:bg-indigo-400 lg:block"
      />
      {/* relative: absolutely placed content (e.g. a screen-reader-only label) scrolls with the pane instead of lengthening the page */}
      <div
        className={`relative min-w-0 flex-1 lg:pl-2 ${fill ? `space-y-3 ${height ? "lg:h-full lg:overflow-y-auto lg:pr-1" : ""}` : "space-y-4"}`}
      >
        {right}
      </div>
    </div>
  );
}
