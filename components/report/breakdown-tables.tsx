import { MissingValue } from "./missing-value";
import { formatInterval, formatPercent, SMALL_N } from "./report-format";

type DifficultyRow = {
  sampled: number;
  resolved: number;
  valid: number;
  validity: number | null;
  ci: [number, number] | null;
};
type CategoryRow = { key: string; label: string; count: number; shareOfInvalid: number | null };

const DIFFICULTY_ORDER = ["easy", "medium", "hard", "unknown"];

const headBase = "py-2 text-xs font-medium uppercase tracking-wide text-slate-500";
const headClass = `${headBase} px-3 text-right`;
const firstHeadClass = `${headBase} pr-3 text-left`;
const cellClass = "whitespace-nowrap px-3 py-2 text-right tabular-nums text-slate-800";

/** Validity by the records' difficulty; the order is easy → hard, then anything else. */
export function DifficultyTable({ byDifficulty }: { byDifficulty: Record<string, DifficultyRow> }) {
  const rank = (difficulty: string) =>
    DIFFICULTY_ORDER.includes(difficulty) ? DIFFICULTY_ORDER.indexOf(difficulty) : DIFFICULTY_ORDER.length;
  const rows = Object.entries(byDifficulty).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  if (rows.length === 0) return <p className="text-sm text-slate-500">This campaign has no items.</p>;
  return (
    <div className="relative overflow-x-auto">
      <table className="min-w-full text-sm">
        <caption className="sr-only">Validity by difficulty</caption>
        <thead>
          <tr className="border-b border-slate-200">
            <th scope="col" className={firstHeadClass}>
              Difficulty
            </th>
            <th scope="col" className={headClass}>
              Sampled
            </th>
            <th scope="col" className={headClass}>
              Resolved (n)
            </th>
            <th scope="col" className={headClass}>
              Valid
            </th>
            <th scope="col" className={headClass}>
              Validity [95% CI]
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map(([difficulty, row]) => (
            <tr key={difficulty}>
              <th scope="row" className="py-2 pr-3 text-left font-medium capitalize text-slate-900">
                {difficulty}
              </th>
              <td className={cellClass}>{row.sampled}</td>
              <td className={cellClass}>{row.resolved}</td>
              <td className={cellClass}>{row.valid}</td>
              <td className={cellClass}>
                {row.validity === null || !row.ci ? (
                  <MissingValue reason="No resolved items yet" />
                ) : (
                  <>
                    <span className="font-semibold">{formatPercent(row.validity)}</span>{" "}
                    <span className="text-slate-500">{formatInterval(row.ci)}</span>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Error categories of the items finally judged invalid; one item may carry several, so shares can add up past 100%. */
export function CategoryTable({ byCategory, invalidItems }: { byCategory: CategoryRow[]; invalidItems: number }) {
  const used = byCategory
    .filter((row) => row.count > 0)
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
  const unused = byCategory.length - used.length;
  if (used.length === 0)
    return (
      <p className="text-sm text-slate-500">No item has been judged invalid yet, so no error category is in use.</p>
    );
  return (
    <>
      <div className="relative overflow-x-auto">
        <table className="min-w-full text-sm">
          <caption className="sr-only">Error categories of invalid items</caption>
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className={firstHeadClass}>
                Category
              </th>
              <th scope="col" className={headClass}>
                Items
              </th>
              <th scope="col" className={headClass}>
                Share of invalid
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {used.map((row) => (
              <tr key={row.key}>
                <th scope="row" className="py-2 pr-3 text-left font-medium text-slate-900">
                  {row.label}
                </th>
                <td className={cellClass}>{row.count}</td>
                <td className={cellClass}>
                  {row.shareOfInvalid === null ? (
                    <MissingValue reason="No invalid items" />
                  ) : (
                    `${formatPercent(row.shareOfInvalid)}${invalidItems < SMALL_N ? ` (n = ${invalidItems})` : ""}`
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-2 text-xs text-slate-500">
        An item can carry several categories, so shares may add up to more than 100%.
        {unused > 0 ? ` ${unused} other ${unused === 1 ? "category is" : "categories are"} not used.` : ""}
      </p>
    </>
  );
}
