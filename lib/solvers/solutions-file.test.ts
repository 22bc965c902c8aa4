import { describe, expect, it } from "vitest";

import { recordKey } from "@/lib/records/hash";

import { describeFileErrors, readSolutionLine, resolveSolutionLines, type SolutionRecord } from "./solutions-file";

const KEY = "a".repeat(64);
const RECORD_FIELDS = {
  question: "Return one.",
  canonical_solution: "def f():\n    return 1\n",
  demo_test_func: "assert f() == 1\n",
  full_test_func: "assert f() == 1\n",
  language: "python",
};
const ACB_KEY = recordKey({
  language: "python",
  question: RECORD_FIELDS.question,
  canonicalSolution: RECORD_FIELDS.canonical_solution,
  demoTestFunc: RECORD_FIELDS.demo_test_func,
  fullTestFunc: RECORD_FIELDS.full_test_func,
});

describe("readSolutionLine", () => {
  it("reads a keyed line with code", () => {
    expect(readSolutionLine(1, { key: KEY, model: "m", code: "x = 1" }, null)).toEqual({
      line: 1,
      key: KEY,
      model: "m",
      source: { code: "x = 1" },
      problems: [],
    });
  });

  it("keys an AutoCodeBench result line by its record's fields and takes the model from --model", () => {
    const line = readSolutionLine(3, { ...RECORD_FIELDS, output: "```python\nx\n```", index: 7 }, "gpt-x");
    expect(line).toMatchObject({ key: ACB_KEY, model: "gpt-x", source: { reply: "```python\nx\n```" }, problems: [] });
  });

  it("names every problem of a bad line", () => {
    const line = readSolutionLine(2, { key: "nope", code: 5, output: "x" }, null);
    expect(line.problems).toEqual([
      'Name the model: a "model" field, or one model for the whole file (Model on the upload form, --model).',
      "A record key is 64 hex characters.",
      '"code" must be a string.',
      'Give the solution as "code" or as a raw reply in "output", not both.',
    ]);
  });

  it("refuses a line with neither code nor output, and a value that is no object", () => {
    expect(readSolutionLine(1, { key: KEY, model: "m" }, null).problems).toEqual([
      'Give the solution: "code", or the model\'s raw reply in "output".',
    ]);
    expect(readSolutionLine(1, [1], null).problems).toEqual(["Expected a JSON object."]);
  });
});

describe("resolveSolutionLines", () => {
  const records = new Map<string, SolutionRecord>([[KEY, { id: 9, language: "python", canonicalSolution: "" }]]);
  const recordOf = (key: string) => records.get(key);

  it("extracts raw replies and keeps code as given", () => {
    const lines = [
      readSolutionLine(1, { key: KEY, model: "a", output: "Sure:\n```python\ny = 2\n```" }, null),
      readSolutionLine(2, { key: KEY, model: "b", code: "```python\nleft as is\n```" }, null),
    ];
    expect(resolveSolutionLines(lines, { datasetName: "d", recordOf })).toEqual({
      solutions: [
        { line: 1, recordId: 9, model: "a", code: "y = 2", reply: "Sure:\n```python\ny = 2\n```" },
        { line: 2, recordId: 9, model: "b", code: "```python\nleft as is\n```", reply: null },
      ],
      errors: [],
    });
  });

  it("is all or nothing: an unknown record or a (record, model) named twice refuses the file", () => {
    const lines = [
      readSolutionLine(1, { key: KEY, model: "a", code: "x" }, null),
      readSolutionLine(2, { key: KEY, model: "a", code: "y" }, null),
      readSolutionLine(3, { key: "b".repeat(64), model: "a", code: "z" }, null),
    ];
    expect(resolveSolutionLines(lines, { datasetName: "demo", recordOf })).toEqual({
      solutions: [],
      errors: [
        { line: 2, message: "The record has a solution from a already (line 1)." },
        { line: 3, message: `demo holds no record with key ${"b".repeat(64)}.` },
      ],
    });
  });

  it("refuses an empty file", () => {
    expect(resolveSolutionLines([], { datasetName: "d", recordOf }).errors).toEqual([
      { line: 1, message: "The file holds no solutions." },
    ]);
  });
});

describe("describeFileErrors", () => {
  it("says each problem once with the lines it is about, not the same sentence per line", () => {
    const unnamed =
      'Name the model: a "model" field, or one model for the whole file (Model on the upload form, --model).';
    const errors = [
      ...Array.from({ length: 14 }, (_, index) => ({ line: index + 1, message: unnamed })),
      { line: 20, message: "Expected a JSON object." },
      { line: 22, message: unnamed },
    ];
    expect(describeFileErrors(errors, 50)).toEqual({
      listed: [`lines 1–14, 22: ${unnamed}`, "line 20: Expected a JSON object."],
      isCut: false,
    });
    expect(describeFileErrors(errors, 1)).toEqual({ listed: [`lines 1–14, 22: ${unnamed}`], isCut: true });
  });
});
