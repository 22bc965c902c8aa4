// Formatting shared by the report's tables and charts: rates as percentages with one decimal,
// agreement coefficients with two, and the reasons an undefined value is shown as "—".
import type { ReportRow } from "@/lib/reports/format";

/** The report's per-row figures, as the server computes them (rates are fractions). */
export type ReportRowView = ReportRow;

export { SMALL_N } from "@/lib/reports/format";
export { languageName, sortedLanguages } from "@/lib/reports/languages";

export const formatPercent = (fraction: number) => `${(100 * fraction).toFixed(1)}%`;

export const formatInterval = ([low, high]: [number, number]) =>
  `[${(100 * low).toFixed(1)}, ${(100 * high).toFixed(1)}]`;

export const formatCoefficient = (value: number) => value.toFixed(2);

/** Why a row's validity is undefined. */
export function validityGap(row: Pick<ReportRowView, "labelled" | "resolved">): string {
  if (row.labelled === 0) return "Nothing labelled yet";
  return "No resolved items: the labels so far disagree or await more annotators";
}

export const GAPS = {
  macroInterval: "No interval: a mean over languages is not a single binomial proportion",
  criticPass: "No critic verdicts for these items",
  executableValid: "Not run in the sandbox yet",
  executableUnavailable: "n/a: this language cannot run in this sandbox (no toolchain, no acb route); not a failure",
  kappa: "Undefined: needs resolved items with a critic verdict, and not one label everywhere on both sides",
  alpha: "Undefined: needs items with two or more labels, and some variation between labels",
  alphaNoOverlap: "Undefined: overlap 1, each item has one annotator",
  macro: "Undefined for every language",
} as const;
