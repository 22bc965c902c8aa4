import { formatNumber } from "./format";
import { Metric } from "./metric";

export type CriticComparison = {
  items: number;
  kappa: number | null;
  confusion: {
    bothValid: number;
    bothInvalid: number;
    humanValidCriticInvalid: number;
    humanInvalidCriticValid: number;
  };
};
export type ExecutionComparison = {
  items: number;
  notRun: number;
  kappa: number | null;
  confusion: {
    bothValid: number;
    bothInvalid: number;
    humanValidExecutionInvalid: number;
    humanInvalidExecutionValid: number;
  };
};

type Cells = { validPass: number; validFail: number; invalidPass: number; invalidFail: number };

/** The humans' final label against the critic's verdict: Cohen's κ and the 2×2 confusion matrix for one scope. */
export function CriticConfusion({ scope, comparison }: { scope: string; comparison: CriticComparison }) {
  const { confusion } = comparison;
  const cells = {
    validPass: confusion.bothValid,
    validFail: confusion.humanValidCriticInvalid,
    invalidPass: confusion.humanInvalidCriticValid,
    invalidFail: confusion.bothInvalid,
  };
  return <Confusion scope={scope} reference="critic" items={comparison.items} kappa={comparison.kappa} cells={cells} />;
}

/** The humans' final label against execution (solution passes its own tests), records that did not run left out. */
export function ExecutionConfusion({ scope, comparison }: { scope: string; comparison: ExecutionComparison }) {
  const { confusion } = comparison;
  const cells = {
    validPass: confusion.bothValid,
    validFail: confusion.humanValidExecutionInvalid,
    invalidPass: confusion.humanInvalidExecutionValid,
    invalidFail: confusion.bothInvalid,
  };
  return (
    <Confusion
      scope={scope}
      reference="execution"
      items={comparison.items}
      kappa={comparison.kappa}
      cells={cells}
      notRun={comparison.notRun}
    />
  );
}

function Confusion({
  scope,
  reference,
  items,
  kappa,
  cells,
  notRun,
}: {
  scope: string;
  reference: "critic" | "execution";
  items: number;
  kappa: number | null;
  cells: Cells;
  notRun?: number;
}) {
  const cell = "border border-slate-200 px-3 py-1.5 text-right tabular-nums";
  const [pass, fail] = reference === "critic" ? ["Critic pass", "Critic fail"] : ["Tests pass", "Tests fail"];
  return (
    <figure className="rounded-md p-3 ring-1 ring-slate-200" aria-label={`Human vs ${reference}, ${scope}`}>
      <figcaption className="mb-2 flex flex-wrap items-baseline gap-x-3 text-sm">
        <span className="font-medium text-slate-800">{scope}</span>
        <span className="text-slate-600">
          items{" "}
          <span className="tabular-nums" data-testid={`${reference}-items-${scope}`}>
            {items}
          </span>
        </span>
        <span className="text-slate-600">
          κ <Metric value={formatNumber(kappa)} />
        </span>
        {notRun ? (
          <span
            className="text-slate-500"
            title="Resolved items whose record was not run, or whose language cannot run here"
          >
            {notRun} not run, left out
          </span>
        ) : null}
      </figcaption>
      <table className="text-sm">
        <thead>
          <tr className="text-xs text-slate-500">
            <td />
            <th scope="col" className="px-3 py-1 font-medium">
              {pass}
            </th>
            <th scope="col" className="px-3 py-1 font-medium">
              {fail}
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row" className="pr-2 text-left text-xs font-medium text-slate-500">
              Human valid
            </th>
            <td className={`${cell} bg-emerald-50`}>{cells.validPass}</td>
            <td className={cell}>{cells.validFail}</td>
          </tr>
          <tr>
            <th scope="row" className="pr-2 text-left text-xs font-medium text-slate-500">
              Human invalid
            </th>
            <td className={cell}>{cells.invalidPass}</td>
            <td className={`${cell} bg-emerald-50`}>{cells.invalidFail}</td>
          </tr>
        </tbody>
      </table>
    </figure>
  );
}
