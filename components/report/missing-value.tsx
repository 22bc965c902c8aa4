/** An undefined figure: a dash whose title (and screen-reader text) says why. */
export function MissingValue({ reason }: { reason: string }) {
  return (
    <span title={reason} className="cursor-help text-slate-400">
      —<span className="sr-only"> ({reason})</span>
    </span>
  );
}
