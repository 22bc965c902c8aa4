import type { ReactNode } from "react";

type Props = {
  title: string;
  /** The chart in words, for screen readers: the wrapper is one image with this name. */
  summary: string;
  isEmpty: boolean;
  emptyText: string;
  note?: ReactNode;
  height?: number;
  children: ReactNode;
};

/** A titled figure around one chart, with an empty state instead of blank axes. */
export function ChartFrame({ title, summary, isEmpty, emptyText, note, height = 320, children }: Props) {
  return (
    <figure className="min-w-0 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <figcaption className="mb-3 text-sm font-semibold text-slate-800">{title}</figcaption>
      {isEmpty ? (
        <div
          className="flex items-center justify-center rounded-md bg-slate-50 text-sm text-slate-500 ring-1 ring-slate-200"
          style={{ height: Math.min(height, 160) }}
        >
          {emptyText}
        </div>
      ) : (
        <div role="img" aria-label={summary} className="w-full" style={{ height }}>
          {children}
        </div>
      )}
      {note && !isEmpty ? <p className="mt-2 text-xs text-slate-500">{note}</p> : null}
    </figure>
  );
}
