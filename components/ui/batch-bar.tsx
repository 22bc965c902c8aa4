/** A batch's thin progress bar: done of total (a batch with nothing to do is full). */
export function BatchBar({ label, done, total }: { label: string; done: number; total: number }) {
  const percent = total ? Math.round((100 * done) / total) : 100;
  return (
    <div
      className="h-1.5 overflow-hidden rounded bg-slate-200"
      role="progressbar"
      aria-label={label}
      aria-valuenow={done}
      aria-valuemax={total}
    >
      <div className="h-full bg-indigo-600" style={{ width: `${percent}%` }} />
    </div>
  );
}
