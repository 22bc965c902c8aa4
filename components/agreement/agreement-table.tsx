import { languageName } from "@/lib/records/languages";

import { formatNumber, formatPercent } from "./format";
import { Metric } from "./metric";

export type AgreementRow = {
  items: number;
  percentAgreement: number | null;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  cohensKappa: number | null;
};

const COHEN_REASON =
  "undefined for these data: Cohen's κ needs exactly two annotators over the items, and some variation";

/** Human–human agreement on valid/invalid, overall and per language. */
export function AgreementTable({
  overall,
  byLanguage,
}: {
  overall: AgreementRow;
  byLanguage: Record<string, AgreementRow>;
}) {
  const rows: [string, AgreementRow][] = [
    ["Overall", overall],
    ...Object.entries(byLanguage).map(([language, row]) => [languageName(language), row] as [string, AgreementRow]),
  ];
  return (
    <table className="min-w-full text-sm" aria-label="Human agreement">
      <thead className="text-left text-xs font-medium uppercase tracking-wide text-slate-500">
        <tr>
          <th scope="col" className="py-1 pr-3">
            Scope
          </th>
          <th scope="col" className="py-1 pr-3 text-right" title="Items with at least two labels">
            Items
          </th>
          <th scope="col" className="py-1 pr-3 text-right">
            % agreement
          </th>
          <th scope="col" className="py-1 pr-3 text-right">
            Fleiss&apos; κ
          </th>
          <th scope="col" className="py-1 pr-3 text-right">
            Krippendorff&apos;s α
          </th>
          <th scope="col" className="py-1 text-right">
            Cohen&apos;s κ
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map(([scope, row]) => (
          <tr key={scope} className={scope === "Overall" ? "font-medium" : undefined}>
            <th scope="row" className="py-1.5 pr-3 text-left font-normal">
              {scope}
            </th>
            <td className="py-1.5 pr-3 text-right tabular-nums">{row.items}</td>
            <td className="py-1.5 pr-3 text-right">
              <Metric value={formatPercent(row.percentAgreement)} />
            </td>
            <td className="py-1.5 pr-3 text-right">
              <Metric value={formatNumber(row.fleissKappa)} />
            </td>
            <td className="py-1.5 pr-3 text-right">
              <Metric value={formatNumber(row.krippendorffAlpha)} />
            </td>
            <td className="py-1.5 text-right">
              <Metric value={formatNumber(row.cohensKappa)} reason={COHEN_REASON} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
