import { formatNumber } from "./format";
import { Metric } from "./metric";

export type RuleRow = {
  rule: string;
  category: string;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number | null;
  recall: number | null;
};

/** Per critic rule mapped to a category: how often its failures match the humans' final categories. */
export function CriticRulesTable({
  rules,
  categoryLabels,
}: {
  rules: RuleRow[];
  categoryLabels: Record<string, string>;
}) {
  if (rules.length === 0)
    return <p className="text-sm text-slate-500">No category of this campaign is mapped to a critic rule.</p>;
  return (
    <table className="min-w-full text-sm" aria-label="Critic rules">
      <thead className="text-left text-xs font-medium uppercase tracking-wide text-slate-500">
        <tr>
          <th scope="col" className="py-1 pr-3">
            Critic rule
          </th>
          <th scope="col" className="py-1 pr-3">
            Category
          </th>
          <th scope="col" className="py-1 pr-3 text-right" title="Rule failed and humans chose the category">
            TP
          </th>
          <th scope="col" className="py-1 pr-3 text-right" title="Rule failed, humans did not choose the category">
            FP
          </th>
          <th scope="col" className="py-1 pr-3 text-right" title="Humans chose the category, the rule passed">
            FN
          </th>
          <th scope="col" className="py-1 pr-3 text-right">
            Precision
          </th>
          <th scope="col" className="py-1 text-right">
            Recall
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rules.map((row) => (
          <tr key={`${row.rule}-${row.category}`}>
            <th scope="row" className="py-1.5 pr-3 text-left font-normal">
              {row.rule}
            </th>
            <td className="py-1.5 pr-3 text-slate-700">{categoryLabels[row.category] ?? row.category}</td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{row.truePositives}</td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{row.falsePositives}</td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{row.falseNegatives}</td>
            <td className="py-1.5 pr-3 text-right">
              <Metric
                value={formatNumber(row.precision)}
                reason="undefined for these data: the rule never failed on a resolved item"
              />
            </td>
            <td className="py-1.5 text-right">
              <Metric
                value={formatNumber(row.recall)}
                reason="undefined for these data: no resolved item carries this category"
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
