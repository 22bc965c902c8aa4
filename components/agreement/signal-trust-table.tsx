import { DataTable } from "@/components/ui/data-table";
import type { SignalTrust } from "@/lib/metrics/signal-trust";
import { languageName } from "@/lib/records/languages";

import { formatNumber } from "./format";

type Row = SignalTrust & { signal: string; byLanguage: Record<string, SignalTrust> };

const SIGNAL_NAMES: Record<string, string> = {
  critic: "Critic (overall)",
  execution: "Execution (reference fails a test)",
  flaky: "Flaky tests",
  "weak-tests": "Weak tests (mutation score < 0.5)",
  unsolved: "Solved by no model",
};

function signalName(signal: string): string {
  return SIGNAL_NAMES[signal] ?? (signal.startsWith("rule:") ? `Critic rule: ${signal.slice(5)}` : signal);
}

function Share({ value, interval }: { value: number | null; interval: [number, number] | null }) {
  if (value === null) return <span title="undefined for these data">—</span>;
  return (
    <span
      title={interval ? `Wilson 95%: ${(interval[0] * 100).toFixed(1)}–${(interval[1] * 100).toFixed(1)}%` : undefined}
    >
      {(value * 100).toFixed(1)}%
      {interval ? (
        <span className="text-xs text-slate-500">
          {" "}
          [{(interval[0] * 100).toFixed(0)}–{(interval[1] * 100).toFixed(0)}]
        </span>
      ) : null}
    </span>
  );
}

function Cells({ trust }: { trust: SignalTrust }) {
  return (
    <>
      <td className="py-2 pr-3 text-right tabular-nums">{trust.n}</td>
      <td
        className="py-2 pr-3 text-right tabular-nums"
        title="flagged & invalid / flagged & valid / missed invalid / quiet & valid"
      >
        {trust.truePositives} / {trust.falsePositives} / {trust.falseNegatives} / {trust.trueNegatives}
      </td>
      <td className="py-2 pr-3 text-right tabular-nums">
        <Share value={trust.precision} interval={trust.precisionInterval} />
      </td>
      <td className="py-2 pr-3 text-right tabular-nums">
        <Share value={trust.recall} interval={trust.recallInterval} />
      </td>
      <td className="py-2 pr-3 text-right tabular-nums">{formatNumber(trust.kappa) ?? "—"}</td>
    </>
  );
}

/** Each automatic signal against people's final labels: confusion, precision and recall for "invalid", κ, n — overall and per language. */
export function SignalTrustTable({ rows }: { rows: Row[] }) {
  return (
    <DataTable
      label="Signals against final labels"
      columns={[
        { label: "Signal" },
        { label: "n", numeric: true },
        { label: "TP / FP / FN / TN", numeric: true },
        { label: "Precision (invalid)", numeric: true },
        { label: "Recall (invalid)", numeric: true },
        { label: "κ", numeric: true },
      ]}
    >
      {rows.flatMap((row) => [
        <tr key={row.signal} data-testid={`signal-${row.signal}`}>
          <th scope="row" className="py-2 pr-3 text-left font-medium text-slate-800">
            {signalName(row.signal)}
          </th>
          <Cells trust={row} />
        </tr>,
        ...Object.entries(row.byLanguage).map(([language, trust]) => (
          <tr key={`${row.signal}-${language}`} className="text-slate-600">
            <td className="py-1 pl-4 pr-3">{languageName(language)}</td>
            <Cells trust={trust} />
          </tr>
        )),
      ])}
    </DataTable>
  );
}
