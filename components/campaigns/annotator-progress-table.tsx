import { formatDuration } from "@/components/agreement/format";
import { Metric } from "@/components/agreement/metric";

import { GoldAccuracy } from "./gold-accuracy";

type Row = {
  userId: string;
  email: string;
  name: string | null;
  labelled: number;
  skipped: number;
  inLease: number;
  medianActiveMs: number | null;
  gold: { n: number; correct: number; byLanguage: { language: string; n: number; correct: number }[] };
};

/** Each person's progress in the campaign with their gold accuracy, for admins and reviewers. */
export function AnnotatorProgressTable({ rows }: { rows: Row[] }) {
  if (rows.length === 0) return <p className="text-sm text-slate-500">Nobody has taken an item yet.</p>;
  const num = "py-1.5 pr-3 text-right tabular-nums";
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" aria-label="Annotator progress">
        <thead className="text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-1 pr-3">
              Annotator
            </th>
            <th scope="col" className="py-1 pr-3 text-right">
              Labelled
            </th>
            <th scope="col" className="py-1 pr-3 text-right">
              Skipped
            </th>
            <th scope="col" className="py-1 pr-3 text-right" title="Items held under a lease that has not run out">
              In lease
            </th>
            <th scope="col" className="py-1 pr-3 text-right" title="Median active time per labelled item">
              Median time
            </th>
            <th
              scope="col"
              className="py-1 pr-3 text-right"
              title="Share of gold items whose verdict matched the known one, overall and per language"
            >
              Gold accuracy
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.userId}>
              <th scope="row" className="py-1.5 pr-3 text-left font-normal" title={row.email}>
                {row.name ?? row.email}
              </th>
              <td className={num}>{row.labelled}</td>
              <td className={num}>{row.skipped}</td>
              <td className={num}>{row.inLease}</td>
              <td className="py-1.5 pr-3 text-right">
                <Metric value={formatDuration(row.medianActiveMs)} reason="no labels yet" />
              </td>
              <td className="py-1.5 pr-3 text-right" data-testid={`gold-accuracy-${row.email}`}>
                <GoldAccuracy gold={row.gold} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
