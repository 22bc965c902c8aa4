/** A labelled progress bar: done out of wanted, with the percentage. `caption` replaces the visible label when the context names it already. */
export function ProgressBar({
  done,
  wanted,
  label,
  caption = label,
}: {
  done: number;
  wanted: number;
  label: string;
  caption?: string;
}) {
  const percent = wanted > 0 ? Math.min(100, Math.round((done / wanted) * 100)) : 0;
  return (
    <div className="space-y-1">
      <div className="flex justify-between text-xs text-slate-600">
        <span>{caption}</span>
        <span>
          {done.toLocaleString("en")} / {wanted.toLocaleString("en")} ({percent}%)
        </span>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={wanted}
        aria-valuenow={done}
      >
        <div className="h-full rounded-full bg-indigo-500" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
