import { formatNumber } from "./format";
import { Metric } from "./metric";

export type CriticComparison = { items: number; kappa: number | null; confusion: { bothValid: number; bothInvalid: number; humanValidCriticInvalid: number; humanInvalidCriticValid: number } };

/** The humans' final label against the critic's verdict: Cohen's κ and the 2×2 confusion matrix for one scope. */
export function CriticConfusion({ scope, comparison }: { scope: string; comparison: CriticComparison }) {
  const { confusion } = comparison;
  const cell = "border border-slate-200 px-3 py-1.5 text-right tabular-nums";
  return (
    <figure className="rounded-md p-3 ring-1 ring-slate-200" aria-label={`Human vs critic, ${scope}`}>
      <figcaption className="mb-2 flex flex-wrap items-baseline gap-x-3 text-sm">
        <span className="font-medium text-slate-800">{scope}</span>
        <span className="text-slate-600">
          items <span className="tabular-nums" data-testid={`critic-items-${scope}`}>{comparison.items}</span>
        </span>
        <span className="text-slate-600">
          κ <Metric value={formatNumber(comparison.kappa)} />
        </span>
      </figcaption>
      <table className="text-sm">
        <thead>
          <tr className="text-xs text-slate-500">
            <td />
            <th scope="col" className="px-3 py-1 font-medium">Critic pass</th>
            <th scope="col" className="px-3 py-1 font-medium">Critic fail</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row" className="pr-2 text-left text-xs font-medium text-slate-500">Human valid</th>
            <td className={`${cell} bg-emerald-50`}>{confusion.bothValid}</td>
            <td className={cell}>{confusion.humanValidCriticInvalid}</td>
          </tr>
          <tr>
            <th scope="row" className="pr-2 text-left text-xs font-medium text-slate-500">Human invalid</th>
            <td className={cell}>{confusion.humanInvalidCriticValid}</td>
            <td className={`${cell} bg-emerald-50`}>{confusion.bothInvalid}</td>
          </tr>
        </tbody>
      </table>
    </figure>
  );
}
