import { describe, expect, it } from "vitest";

import { downloadFileName, type ReportRow, reportToCsv, reportToMarkdown, SMALL_N } from "./format";

const row = (over: Partial<ReportRow>): ReportRow => ({
  sampled: 200,
  labelled: 200,
  resolved: 200,
  valid: 167,
  validity: 0.835,
  ci: [0.781, 0.878],
  criticPass: 0.9,
  criticN: 200,
  executableValid: 0.95,
  executableN: 200,
  executableUnavailable: 0,
  humanCriticKappa: 0.41,
  alpha: 0.72,
  topCategories: [{ key: "name-mismatch", count: 12 }],
  ...over,
});

const report = {
  byLanguage: {
    python: row({}),
    cpp: row({ validity: null, ci: null, resolved: 0, valid: 0, humanCriticKappa: null }),
    kotlin: row({ executableValid: null, executableUnavailable: 200 }),
  },
  pooled: row({ resolved: 200 }),
  macro: row({ ci: null }),
};

describe("reportToMarkdown", () => {
  it("prints the paper row with the interval and n", () => {
    const markdown = reportToMarkdown(report);
    expect(markdown).toContain("| Python | 83.5% [78.1, 87.8] | n = 200 | 90.0% | 95.0% | 0.41 | 0.72 |");
    expect(markdown).toContain("| C++ | — | n = 0 | 90.0% | 95.0% | — | 0.72 |");
    expect(markdown).toContain("| Mean over languages (macro) | 83.5% | n = 200 |");
  });

  it("shows executable-valid as n/a, not 0%, for a language that cannot run here", () => {
    expect(reportToMarkdown(report)).toContain("| Kotlin | 83.5% [78.1, 87.8] | n = 200 | 90.0% | n/a | 0.41 | 0.72 |");
  });
});

describe("reportToCsv", () => {
  it("writes fractions and leaves undefined values empty", () => {
    const lines = reportToCsv(report).trim().split("\n");
    expect(lines[0]).toBe(
      "language,sampled,labelled,resolved,valid,validity,ci_low,ci_high,critic_pass,critic_n,executable_valid,executable_n,executable_unavailable,human_critic_kappa,alpha,top_categories",
    );
    expect(lines).toContain("C++,200,200,0,0,,,,0.9,200,0.95,200,0,,0.72,name-mismatch (12)");
    expect(lines).toContain("Python,200,200,200,167,0.835,0.781,0.878,0.9,200,0.95,200,0,0.41,0.72,name-mismatch (12)");
  });

  it("writes no cell a spreadsheet would run as a formula", () => {
    const python = { ...report.byLanguage.python, topCategories: [{ key: "=cmd|'/C calc'!A0", count: 1 }] };
    expect(reportToCsv({ ...report, byLanguage: { python } })).toMatch(/,'=cmd\|'\/C calc'!A0 \(1\)$/m);
  });
});

describe("small numbers", () => {
  it("prints n beside a rate that rests on fewer than 10 items, in Markdown and CSV", () => {
    expect(SMALL_N).toBe(10);
    // The report once said "critic pass 0.0%" for JavaScript from 1 of 7 records, with no n.
    const javascript = row({
      sampled: 7,
      labelled: 7,
      resolved: 7,
      valid: 4,
      validity: 4 / 7,
      criticPass: 0,
      criticN: 1,
      executableValid: 0.5,
      executableN: 6,
    });
    const markdown = reportToMarkdown({ ...report, byLanguage: { javascript } });
    expect(markdown).toMatch(
      /\| JavaScript \| 57\.1% \[[\d.]+, [\d.]+\] \| n = 7 \| 0\.0% \(n = 1\) \| 50\.0% \(n = 6\) \|/,
    );
    expect(markdown).toContain("| 90.0% | 95.0% |");
    expect(reportToCsv({ ...report, byLanguage: { javascript } })).toContain(
      "JavaScript,7,7,7,4,0.5714285714285714,0.781,0.878,0,1,0.5,6,0,",
    );
  });
});

describe("downloadFileName", () => {
  it("names a download after the campaign or dataset, what it holds and the date", () => {
    const date = new Date("2026-11-30T23:59:00Z");
    expect(downloadFileName({ name: "py-batch 1", what: "report", extension: "json", date })).toBe(
      "py-batch-1-report-2026-11-30.json",
    );
    expect(downloadFileName({ name: "../etc/passwd", what: "labels", extension: "csv", date })).toBe(
      "etc-passwd-labels-2026-11-30.csv",
    );
  });

  it("leaves no stray underscore or dash where spaces and punctuation were", () => {
    const date = new Date("2026-11-30T00:00:00Z");
    expect(downloadFileName({ name: "Python batch (Nov) ", what: "report", extension: "md", date })).toBe(
      "Python-batch-Nov-report-2026-11-30.md",
    );
    expect(downloadFileName({ name: "C++ / Rust: round 2!", what: "labels", extension: "csv", date })).toBe(
      "C-Rust-round-2-labels-2026-11-30.csv",
    );
    // Underscores the name itself holds are kept; a name of nothing but punctuation falls back.
    expect(downloadFileName({ name: "py_batch", what: "report", extension: "json", date })).toBe(
      "py_batch-report-2026-11-30.json",
    );
    expect(downloadFileName({ name: "***", what: "report", extension: "json", date })).toBe(
      "verity-report-2026-11-30.json",
    );
  });
});

describe("reportToMarkdown note", () => {
  it("states the rule under the table when given", () => {
    expect(reportToMarkdown(report, { note: "Counts once." })).toMatch(/\|\n\nCounts once\.\n$/);
  });
});
