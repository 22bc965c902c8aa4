import { Card } from "@/components/ui/primitives";
import type { DawidSkeneReport } from "@/lib/metrics/dawid-skene";
import { languageName } from "@/lib/records/languages";

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;

/** The Dawid–Skene estimate beside the rule-based table: per language, then each annotator's reliability. */
export function DawidSkeneCard({ estimate }: { estimate: DawidSkeneReport }) {
  const rows = [...estimate.byLanguage, ...(estimate.overall ? [{ language: "all", ...estimate.overall }] : [])];
  return (
    <Card title={`Dawid–Skene estimate (${estimate.model})`}>
      <div className="space-y-4 text-sm">
        <p className="text-slate-600">{estimate.method}</p>
        {estimate.converged ? null : (
          <p className="text-amber-800">The estimate did not settle within its iteration limit; read it with care.</p>
        )}
        <div className="overflow-x-auto">
          <table className="w-full text-left" aria-label="Dawid–Skene validity per language">
            <thead className="text-xs text-slate-500">
              <tr>
                <th scope="col">Language</th>
                <th scope="col" className="text-right">
                  Records
                </th>
                <th scope="col" className="text-right">
                  Validity
                </th>
                <th scope="col" className="text-right">
                  95% bootstrap interval
                </th>
              </tr>
            </thead>
            <tbody className="tabular-nums">
              {rows.map((row) => (
                <tr key={row.language}>
                  <th scope="row" className="font-normal">
                    {row.language === "all" ? "All languages" : languageName(row.language)}
                  </th>
                  <td className="text-right">{row.n}</td>
                  {row.interval ? (
                    <>
                      <td className="text-right">{percent(row.validity)}</td>
                      <td className="text-right">
                        {percent(row.interval[0])} – {percent(row.interval[1])}
                      </td>
                    </>
                  ) : (
                    <td className="text-right text-slate-500" colSpan={2}>
                      too few records to estimate
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="overflow-x-auto">
          <table className="w-full text-left" aria-label="Annotator reliability">
            <thead className="text-xs text-slate-500">
              <tr>
                <th scope="col">Annotator</th>
                <th scope="col" className="text-right">
                  Labels
                </th>
                <th scope="col" className="text-right" title="How often they say invalid of an invalid record">
                  Sensitivity
                </th>
                <th scope="col" className="text-right" title="How often they say valid of a valid record">
                  Specificity
                </th>
              </tr>
            </thead>
            <tbody className="tabular-nums">
              {estimate.annotators.map((annotator) => (
                <tr key={annotator.email}>
                  <th scope="row" className="font-normal">
                    {annotator.email}
                  </th>
                  <td className="text-right">{annotator.labels}</td>
                  <td className="text-right">{percent(annotator.sensitivity)}</td>
                  <td className="text-right">{percent(annotator.specificity)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </Card>
  );
}
