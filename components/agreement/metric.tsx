import { UNDEFINED_REASON } from "./format";

/** A formatted figure, or "—" with the reason in its title when the metric is undefined. */
export function Metric({ value, reason = UNDEFINED_REASON }: { value: string | null; reason?: string }) {
  if (value === null) {
    return (
      <span title={reason} className="cursor-help text-slate-400">
        —<span className="sr-only"> ({reason})</span>
      </span>
    );
  }
  return <span className="tabular-nums">{value}</span>;
}
