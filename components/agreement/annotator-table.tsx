import { GoldAccuracy } from "@/components/campaigns/gold-accuracy";

import { formatDuration, formatNumber, formatPercent } from "./format";
import { Metric } from "./metric";

export type AnnotatorRow = {
  userId: string;
  email: string;
  name: string | null;
  items: number;
  medianActiveMs: number | null;
  meanActiveMs: number | null;
  fastDecisions: number;
  itemsPerDay: number | null;
  agreementWithFinal: number | null;
  pairwiseKappa: Record<string, number | null>;
  gold: { n: number; correct: number; byLanguage: { language: string; n: number; correct: number }[] };
};

const nameOf = (row: AnnotatorRow) => row.name ?? row.email;

/** Per annotator: volume, active time, decisions under 10 s, pace, agreement with the final labels and gold accuracy. */
export function AnnotatorTable({ annotators }: { annotators: AnnotatorRow[] }) {
  if (annotators.length === 0) return <p className="text-sm text-slate-500">Nobody has labelled yet.</p>;
  return (
    <table className="min-w-full text-sm" aria-label="Annotators">
      <thead className="text-left text-xs font-medium uppercase tracking-wide text-slate-500">
        <tr>
          <th scope="col" className="py-1 pr-3">
            Annotator
          </th>
          <th scope="col" className="py-1 pr-3 text-right">
            Items
          </th>
          <th scope="col" className="py-1 pr-3 text-right">
            Median active
          </th>
          <th scope="col" className="py-1 pr-3 text-right">
            Mean active
          </th>
          <th scope="col" className="py-1 pr-3 text-right" title="Labels submitted after less than 10 s of active time">
            Fast (&lt; 10 s)
          </th>
          <th scope="col" className="py-1 pr-3 text-right" title="Items per day on which they labelled">
            Items/day
          </th>
          <th
            scope="col"
            className="py-1 pr-3 text-right"
            title="Share of their resolved items where their label matches the final one"
          >
            Agreement with final
          </th>
          <th scope="col" className="py-1 text-right" title="Share of gold items whose verdict matched the known one">
            Gold accuracy
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {annotators.map((row) => (
          <tr key={row.userId}>
            <th scope="row" className="py-1.5 pr-3 text-left font-normal" title={row.email}>
              {nameOf(row)}
            </th>
            <td className="py-1.5 pr-3 text-right tabular-nums">{row.items}</td>
            <td className="py-1.5 pr-3 text-right">
              <Metric value={formatDuration(row.medianActiveMs)} />
            </td>
            <td className="py-1.5 pr-3 text-right">
              <Metric value={formatDuration(row.meanActiveMs)} />
            </td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{row.fastDecisions}</td>
            <td className="py-1.5 pr-3 text-right">
              <Metric value={formatNumber(row.itemsPerDay, 2)} />
            </td>
            <td className="py-1.5 pr-3 text-right">
              <Metric
                value={formatPercent(row.agreementWithFinal)}
                reason="undefined for these data: none of their items is resolved yet"
              />
            </td>
            <td className="py-1.5 text-right">
              <GoldAccuracy gold={row.gold} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Cohen's κ between every pair of annotators over the items both labelled; blank where they share none. */
export function PairwiseKappaMatrix({ annotators }: { annotators: AnnotatorRow[] }) {
  if (annotators.length < 2) return <p className="text-sm text-slate-500">Needs at least two annotators.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="text-sm" aria-label="Pairwise kappa">
        <thead className="text-xs font-medium text-slate-500">
          <tr>
            <td />
            {annotators.map((column) => (
              <th key={column.userId} scope="col" className="px-3 py-1 text-right font-medium" title={column.email}>
                {nameOf(column)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {annotators.map((row) => (
            <tr key={row.userId}>
              <th scope="row" className="py-1.5 pr-3 text-left text-xs font-medium text-slate-500" title={row.email}>
                {nameOf(row)}
              </th>
              {annotators.map((column) => (
                <td key={column.userId} className="px-3 py-1.5 text-right">
                  {column.userId === row.userId ? (
                    <span className="text-slate-300">·</span>
                  ) : column.userId in row.pairwiseKappa ? (
                    <Metric value={formatNumber(row.pairwiseKappa[column.userId])} />
                  ) : (
                    <span className="text-slate-300" title="No item labelled by both">
                      n/a
                    </span>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
