import type { ReactNode } from "react";

import { MissingValue } from "./missing-value";
import {
  formatCoefficient,
  formatInterval,
  formatPercent,
  GAPS,
  languageName,
  type ReportRowView,
  SMALL_N,
  sortedLanguages,
  validityGap,
} from "./report-format";

type Props = {
  byLanguage: Record<string, ReportRowView>;
  pooled: ReportRowView;
  macro: ReportRowView;
  overlap: number;
  categoryLabels: Record<string, string>;
};

const COLUMNS = [
  "Sampled",
  "Labelled",
  "Resolved (n)",
  "Valid",
  "Validity [95% CI]",
  "Critic pass",
  "Executable-valid",
  "κ human–critic",
  "α annotators",
  "Top error categories",
];

/** The paper table: one row per language, then the pooled and the macro totals. */
export function LanguageTable({ byLanguage, pooled, macro, overlap, categoryLabels }: Props) {
  const languages = sortedLanguages(byLanguage);
  return (
    <div className="relative overflow-x-auto">
      <table className="min-w-full text-sm">
        <caption className="sr-only">Validity by language, with the pooled and macro totals</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs font-semibold text-slate-600">
            <th scope="col" className="py-2 pr-2 align-bottom">
              Language
            </th>
            {COLUMNS.map((column) => (
              <th
                key={column}
                scope="col"
                className={`px-2 py-2 align-bottom ${column === "Top error categories" ? "min-w-40 text-left" : "text-right"}`}
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {languages.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS.length + 1} className="py-6 text-center text-slate-500">
                This campaign has no items.
              </td>
            </tr>
          ) : (
            languages.map(([language, row]) => (
              <ReportRowCells
                key={language}
                name={languageName(language)}
                row={row}
                overlap={overlap}
                categoryLabels={categoryLabels}
              />
            ))
          )}
        </tbody>
        <tbody className="border-t-2 border-slate-300 bg-slate-50 font-medium">
          <ReportRowCells
            name="All languages (pooled)"
            hint="Every item counted once, whatever its language"
            row={pooled}
            overlap={overlap}
            categoryLabels={categoryLabels}
          />
          <ReportRowCells
            name="Mean over languages (macro)"
            hint="Unweighted mean of each rate over the languages where it is defined; counts are totals"
            row={macro}
            overlap={overlap}
            categoryLabels={categoryLabels}
            isMacro
          />
        </tbody>
      </table>
    </div>
  );
}

function Num({ children, muted = false, title }: { children: ReactNode; muted?: boolean; title?: string }) {
  return (
    <td
      title={title}
      className={`whitespace-nowrap px-2 py-2 text-right tabular-nums ${muted ? "text-slate-400" : "text-slate-800"}`}
    >
      {children}
    </td>
  );
}

function ReportRowCells({
  name,
  hint,
  row,
  overlap,
  categoryLabels,
  isMacro = false,
}: {
  name: string;
  hint?: string;
  row: ReportRowView;
  overlap: number;
  categoryLabels: Record<string, string>;
  isMacro?: boolean;
}) {
  // A rate resting on few items says how few, so "0.0%" from one record does not read as a finding.
  const rate = (value: number | null, n: number, reason: string) =>
    value === null ? (
      <MissingValue reason={isMacro ? GAPS.macro : reason} />
    ) : (
      <>
        {formatPercent(value)}
        {n < SMALL_N ? (
          <>
            {" "}
            <span className="text-xs text-slate-500">(n = {n})</span>
          </>
        ) : null}
      </>
    );
  const coefficient = (value: number | null, reason: string) =>
    value === null ? <MissingValue reason={isMacro ? GAPS.macro : reason} /> : formatCoefficient(value);
  const countTitle = isMacro ? "Totals, as in the pooled row" : undefined;
  return (
    <tr>
      <th scope="row" title={hint} className="whitespace-nowrap py-2 pr-2 text-left font-medium text-slate-900">
        {name}
      </th>
      <Num muted={isMacro} title={countTitle}>
        {row.sampled}
      </Num>
      <Num muted={isMacro} title={countTitle}>
        {row.labelled}
      </Num>
      <Num muted={isMacro} title={countTitle}>
        {row.resolved}
      </Num>
      <Num muted={isMacro} title={countTitle}>
        {row.valid}
      </Num>
      <Num>
        {row.validity === null ? (
          <MissingValue reason={isMacro ? GAPS.macro : validityGap(row)} />
        ) : (
          <>
            <span className="font-semibold">{formatPercent(row.validity)}</span>{" "}
            {row.ci ? (
              <span className="text-slate-500">{formatInterval(row.ci)}</span>
            ) : (
              <MissingValue reason={isMacro ? GAPS.macroInterval : validityGap(row)} />
            )}
          </>
        )}
      </Num>
      <Num>{rate(row.criticPass, row.criticN, GAPS.criticPass)}</Num>
      <Num>
        {row.executableValid === null && row.executableUnavailable > 0 && !isMacro ? (
          <span title={GAPS.executableUnavailable} className="cursor-help text-slate-500">
            n/a<span className="sr-only"> ({GAPS.executableUnavailable})</span>
          </span>
        ) : (
          rate(row.executableValid, row.executableN, GAPS.executableValid)
        )}
      </Num>
      <Num>{coefficient(row.humanCriticKappa, GAPS.kappa)}</Num>
      <Num>{coefficient(row.alpha, overlap < 2 ? GAPS.alphaNoOverlap : GAPS.alpha)}</Num>
      <td className="px-2 py-2 text-slate-700">
        {row.topCategories.length === 0 ? (
          <span className="text-slate-400">none</span>
        ) : (
          <span className="text-xs font-normal">
            {row.topCategories
              .map((category) => `${categoryLabels[category.key] ?? category.key} (${category.count})`)
              .join(", ")}
          </span>
        )}
      </td>
    </tr>
  );
}
