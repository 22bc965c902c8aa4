import { describe, expect, it } from "vitest";

import { type ReportRow, reportToCsv, reportToMarkdown } from "./format";

const row = (over: Partial<ReportRow>): ReportRow => ({
  sampled: 200,
  labelled: 200,
  resolved: 200,
  valid: 167,
  validity: 0.835,
  ci: [0.781, 0.878],
  criticPass: 0.9,
  executableValid: 0.95,
  executableUnavailable: 0,
  humanCriticKappa: 0.41,
  alpha: 0.72,
  topCategories: [{ key: "name-mismatch", count: 12 }],
  ...over,
});

const report = { byLanguage: { python: row({}), cpp: row({ validity: null, ci: null, resolved: 0, valid: 0, humanCriticKappa: null }), kotlin: row({ executableValid: null, executableUnavailable: 200 }) }, pooled: row({ resolved: 200 }), macro: row({ ci: null }) };

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
    expect(lines[0]).toBe("language,sampled,labelled,resolved,valid,validity,ci_low,ci_high,critic_pass,executable_valid,executable_unavailable,human_critic_kappa,alpha,top_categories");
    expect(lines).toContain("C++,200,200,0,0,,,,0.9,0.95,0,,0.72,name-mismatch (12)");
    expect(lines).toContain("Python,200,200,200,167,0.835,0.781,0.878,0.9,0.95,0,0.41,0.72,name-mismatch (12)");
  });
});
