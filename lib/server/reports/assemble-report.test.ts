// The same rows give the same report bytes whatever order the database returned them in. A parallel
// plan returns groups in a different order from run to run; before the report ordered its rows, two
// runs of `verity report --json` on unchanged data differed in their key order (seen in CI).
import { describe, expect, it } from "vitest";

import { assembleReport } from "@/lib/server/reports/reports";

const meta = { id: "c1", name: "Campaign", dataset: "set", finalRule: "consensus", overlap: 2 };
const zeroCounts = {
  sampled: 0,
  labelled: 0,
  resolved: 0,
  valid: 0,
  criticKnown: 0,
  criticPass: 0,
  execKnown: 0,
  execValid: 0,
  execUnavailable: 0,
  bothValid: 0,
  bothInvalid: 0,
  humanValidCriticInvalid: 0,
  humanInvalidCriticValid: 0,
};

const rows = {
  counts: [
    { ...zeroCounts, language: "python", difficulty: "hard", sampled: 3, labelled: 3, resolved: 3, valid: 1 },
    { ...zeroCounts, language: "cpp", difficulty: "easy", sampled: 5, labelled: 4, resolved: 4, valid: 3 },
    { ...zeroCounts, language: "python", difficulty: "easy", sampled: 7, labelled: 7, resolved: 6, valid: 5 },
  ],
  categories: [
    { language: "python", category: "wrong-tests", count: 2 },
    { language: "cpp", category: "unclear", count: 1 },
    { language: "python", category: "unclear", count: 1 },
  ],
  splits: [
    { language: "python", nValid: 1, nInvalid: 1, items: 2 },
    { language: "cpp", nValid: 2, nInvalid: 0, items: 3 },
    { language: "python", nValid: 2, nInvalid: 0, items: 5 },
  ],
  flakyRows: [
    { language: "python", records: 1 },
    { language: "cpp", records: 2 },
  ],
};
const categoryDefs = [
  { key: "unclear", label: "Unclear statement" },
  { key: "wrong-tests", label: "Wrong tests" },
];

function reversed(): typeof rows {
  return {
    counts: [...rows.counts].reverse(),
    categories: [...rows.categories].reverse(),
    splits: [...rows.splits].reverse(),
    flakyRows: [...rows.flakyRows].reverse(),
  };
}

describe("a report assembled from its rows", () => {
  it("is the same bytes whatever order the rows come in", () => {
    const first = JSON.stringify(assembleReport(meta, rows, categoryDefs));
    expect(JSON.stringify(assembleReport(meta, reversed(), categoryDefs))).toBe(first);
  });

  it("lists languages, difficulties and categories in a fixed order", () => {
    const report = assembleReport(meta, reversed(), categoryDefs);
    expect(Object.keys(report.byLanguage)).toEqual(["cpp", "python"]);
    expect(Object.keys(report.byDifficulty)).toEqual(["easy", "hard"]);
    expect(Object.keys(report.categoriesByLanguage)).toEqual(["cpp", "python"]);
    expect(Object.keys(report.categoriesByLanguage.python)).toEqual(["unclear", "wrong-tests"]);
    expect(Object.keys(report.flaky.byLanguage)).toEqual(["cpp", "python"]);
    expect(report.flaky.records).toBe(3);
    expect(report.byLanguage.python.valid).toBe(6);
  });
});
