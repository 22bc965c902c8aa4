// Renders a validity report as CSV and as a Markdown table ready for a paper. Pure.
import { stringify } from "csv-stringify/sync";

import { languageName, sortedLanguages } from "./languages";

/** One row of the validity report; rates are fractions in [0, 1], null when undefined. */
export type ReportRow = {
  sampled: number;
  labelled: number;
  resolved: number;
  valid: number;
  validity: number | null;
  ci: [number, number] | null;
  criticPass: number | null;
  executableValid: number | null;
  /** Items whose language cannot run in this sandbox: not failures, left out of executableValid. */
  executableUnavailable: number;
  humanCriticKappa: number | null;
  alpha: number | null;
  topCategories: { key: string; count: number }[];
};

export type FormattableReport = { byLanguage: Record<string, ReportRow>; pooled: ReportRow; macro: ReportRow };

const percent = (value: number | null) => (value === null ? "—" : `${(100 * value).toFixed(1)}%`);
/** Executable-valid, or "n/a" when nothing was run because the language is unavailable here. */
export function executableCell(row: Pick<ReportRow, "executableValid" | "executableUnavailable">): string {
  if (row.executableValid === null && row.executableUnavailable > 0) return "n/a";
  return percent(row.executableValid);
}
const fixed = (value: number | null, digits = 2) => (value === null ? "—" : value.toFixed(digits));

function rows(report: FormattableReport): [string, ReportRow][] {
  return [...sortedLanguages(report.byLanguage).map(([language, row]) => [languageName(language), row] as [string, ReportRow]), ["All languages (pooled)", report.pooled], ["Mean over languages (macro)", report.macro]];
}

/** The per-language table as CSV; rates are fractions, undefined values empty. */
export function reportToCsv(report: FormattableReport): string {
  const header = ["language", "sampled", "labelled", "resolved", "valid", "validity", "ci_low", "ci_high", "critic_pass", "executable_valid", "executable_unavailable", "human_critic_kappa", "alpha", "top_categories"];
  const body = rows(report).map(([name, row]) => [
    name,
    row.sampled,
    row.labelled,
    row.resolved,
    row.valid,
    row.validity ?? "",
    row.ci?.[0] ?? "",
    row.ci?.[1] ?? "",
    row.criticPass ?? "",
    row.executableValid ?? "",
    row.executableUnavailable,
    row.humanCriticKappa ?? "",
    row.alpha ?? "",
    row.topCategories.map((category) => `${category.key} (${category.count})`).join("; "),
  ]);
  return stringify([header, ...body]);
}

/**
 * The per-language table in Markdown, e.g. `| Python | 83.5% [78.1, 87.8] | n = 200 | …`: validity
 * with its Wilson 95% interval over resolved items. The macro row has no interval.
 */
export function reportToMarkdown(report: FormattableReport): string {
  const lines = [
    "| Language | Validity [95% CI] | n | Critic pass | Executable-valid | κ (human–critic) | α (annotators) |",
    "|---|---|---|---|---|---|---|",
    ...rows(report).map(([name, row]) => {
      const interval = row.ci ? ` [${(100 * row.ci[0]).toFixed(1)}, ${(100 * row.ci[1]).toFixed(1)}]` : "";
      return `| ${name} | ${percent(row.validity)}${interval} | n = ${row.resolved} | ${percent(row.criticPass)} | ${executableCell(row)} | ${fixed(row.humanCriticKappa)} | ${fixed(row.alpha)} |`;
    }),
  ];
  return `${lines.join("\n")}\n`;
}
