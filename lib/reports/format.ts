// Renders a validity report as CSV and as a Markdown table ready for a paper. Pure.
import { stringify } from "csv-stringify/sync";

import { languageName, sortedLanguages } from "./languages";
import { spreadsheetSafe } from "./spreadsheet-safe";

/** One row of the validity report; rates are fractions in [0, 1], null when undefined. */
export type ReportRow = {
  sampled: number;
  labelled: number;
  resolved: number;
  valid: number;
  validity: number | null;
  ci: [number, number] | null;
  criticPass: number | null;
  /** Items with a critic verdict: what criticPass rests on. */
  criticN: number;
  executableValid: number | null;
  /** Items whose language cannot run in this sandbox: not failures, left out of executableValid. */
  executableUnavailable: number;
  /** Items run in the sandbox: what executableValid rests on. */
  executableN: number;
  humanCriticKappa: number | null;
  alpha: number | null;
  topCategories: { key: string; count: number }[];
};

export type FormattableReport = { byLanguage: Record<string, ReportRow>; pooled: ReportRow; macro: ReportRow };

/** Below this many items a rate is shown with its n, so 0.0% from one record does not read as a finding. */
export const SMALL_N = 10;

const percent = (value: number | null) => (value === null ? "—" : `${(100 * value).toFixed(1)}%`);
const percentOf = (value: number | null, n: number) =>
  value !== null && n < SMALL_N ? `${percent(value)} (n = ${n})` : percent(value);

/** Executable-valid (with its n when small), or "n/a" when nothing ran because the language is unavailable here. */
function executableCell(row: Pick<ReportRow, "executableValid" | "executableUnavailable" | "executableN">): string {
  if (row.executableValid === null && row.executableUnavailable > 0) return "n/a";
  return percentOf(row.executableValid, row.executableN);
}

/** A download's file name: the campaign or dataset, what it holds and the UTC date, e.g. `py-batch-report-2026-11-30.json`. */
export function downloadFileName({
  name,
  what,
  extension,
  date = new Date(),
}: {
  name: string;
  what: string;
  extension: string;
  date?: Date;
}): string {
  // Each run of other characters (spaces, slashes, brackets) becomes one dash, and none is left at
  // either end: "Python batch (Nov)" is "Python-batch-Nov", never "Python_batch_Nov_".
  const safe = (text: string) =>
    text
      .replace(/[^\w.-]+/g, "-")
      .replace(/-{2,}/g, "-")
      .replace(/^[-_.]+|[-_.]+$/g, "");
  return `${safe(name) || "verity"}-${what}-${date.toISOString().slice(0, 10)}.${extension}`;
}
const fixed = (value: number | null, digits = 2) => (value === null ? "—" : value.toFixed(digits));

function rows(report: FormattableReport): [string, ReportRow][] {
  return [
    ...sortedLanguages(report.byLanguage).map(
      ([language, row]) => [languageName(language), row] as [string, ReportRow],
    ),
    ["All languages (pooled)", report.pooled],
    ["Mean over languages (macro)", report.macro],
  ];
}

/** The per-language table as CSV; rates are fractions, undefined values empty, text cells spreadsheet-safe. */
export function reportToCsv(report: FormattableReport): string {
  const header = [
    "language",
    "sampled",
    "labelled",
    "resolved",
    "valid",
    "validity",
    "ci_low",
    "ci_high",
    "critic_pass",
    "critic_n",
    "executable_valid",
    "executable_n",
    "executable_unavailable",
    "human_critic_kappa",
    "alpha",
    "top_categories",
  ];
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
    row.criticN,
    row.executableValid ?? "",
    row.executableN,
    row.executableUnavailable,
    row.humanCriticKappa ?? "",
    row.alpha ?? "",
    row.topCategories.map((category) => `${category.key} (${category.count})`).join("; "),
  ]);
  return stringify([header, ...body.map((cells) => cells.map(spreadsheetSafe))]);
}

/**
 * The per-language table in Markdown, e.g. `| Python | 83.5% [78.1, 87.8] | n = 200 | …`: validity
 * with its Wilson 95% interval over resolved items. The macro row has no interval. A critic or
 * executable rate resting on fewer than SMALL_N items carries its n. `note` follows the table.
 */
export function reportToMarkdown(report: FormattableReport, { note }: { note?: string } = {}): string {
  const lines = [
    "| Language | Validity [95% CI] | n | Critic pass | Executable-valid | κ (human–critic) | α (annotators) |",
    "|---|---|---|---|---|---|---|",
    ...rows(report).map(([name, row]) => {
      const interval = row.ci ? ` [${(100 * row.ci[0]).toFixed(1)}, ${(100 * row.ci[1]).toFixed(1)}]` : "";
      return `| ${name} | ${percent(row.validity)}${interval} | n = ${row.resolved} | ${percentOf(row.criticPass, row.criticN)} | ${executableCell(row)} | ${fixed(row.humanCriticKappa)} | ${fixed(row.alpha)} |`;
    }),
  ];
  return `${lines.join("\n")}\n${note ? `\n${note}\n` : ""}`;
}
