"use client";

import { type ReactNode, useRef, useState } from "react";

const MIN = 25;
const MAX = 75;

/** Two side-by-side panes with a draggable (and arrow-key adjustable) splitter; stacks on narrow screens. */
export function SplitPane({ left, right, initial = 55 }: { left: ReactNode; right: ReactNode; initial?: number }) {
  const [percent, setPercent] = useState(initial);
  const container = useRef<HTMLDivElement>(null);

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
    <div ref={container} className="flex flex-col gap-4 lg:flex-row lg:gap-0" style={{ "--split": `${percent}%` } as React.CSSProperties}>
      <div className="min-w-0 space-y-4 lg:w-[var(--split)] lg:pr-2">{left}</div>
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
      <div className="min-w-0 flex-1 space-y-4 lg:pl-2">{right}</div>
    </div>
  );
}
