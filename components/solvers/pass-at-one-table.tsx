import { DataTable } from "@/components/ui/data-table";
import { languageName } from "@/lib/records/languages";
import type { ModelPassAtOne, PassAtOne } from "@/lib/metrics/solvers";

function Cell({ figures }: { figures: PassAtOne | undefined }) {
  if (!figures || figures.attempted === 0)
    return <td className="px-3 py-2 text-right text-slate-400">{figures?.pending ? "running" : "—"}</td>;
  const interval = figures.interval
    ? `95% interval ${(figures.interval[0] * 100).toFixed(1)}–${(figures.interval[1] * 100).toFixed(1)}%`
    : undefined;
  return (
    <td className="px-3 py-2 text-right tabular-nums" title={interval}>
      {((figures.passAtOne ?? 0) * 100).toFixed(1)}%{" "}
      <span className="text-xs text-slate-500">
        ({figures.solved}/{figures.attempted})
      </span>
    </td>
  );
}

/** pass@1 per model, overall and per language, with each figure's solved/attempted (the table AutoCodeBench prints). */
export function PassAtOneTable({ models }: { models: ModelPassAtOne[] }) {
  const languages = [...new Set(models.flatMap((model) => Object.keys(model.byLanguage)))].sort();
  return (
    <DataTable
      label="pass@1 per model and language"
      columns={[
        { label: "Model" },
        { label: "All languages", numeric: true },
        ...languages.map((language) => ({ label: languageName(language), numeric: true })),
      ]}
    >
      {models.map((model) => (
        <tr key={model.model}>
          <th scope="row" className="py-2 pr-3 text-left font-medium text-slate-800">
            {model.model}
          </th>
          <Cell figures={model} />
          {languages.map((language) => (
            <Cell key={language} figures={model.byLanguage[language]} />
          ))}
        </tr>
      ))}
    </DataTable>
  );
}
