import { describe, expect, it } from "vitest";

import { goldFileRefusal, readGoldFile, resolveGoldLines } from "./gold-file";

const KEY = "a".repeat(64);
const dataset = {
  datasetName: "demo",
  recordIdOf: (ref: { key: string } | { id: number }) => ("id" in ref ? ref.id : 1),
};

describe("readGoldFile", () => {
  it("reads JSONL lines by key or id with a verdict, categories and a note", () => {
    const lines = readGoldFile(
      `{"key":"${KEY}","verdict":"invalid","categories":["name-mismatch"],"note":"add vs sum"}\n\n{"id":7,"valid":true}\n`,
    );
    expect(lines).toEqual([
      {
        line: 1,
        ref: { key: KEY },
        answer: { valid: false, categories: ["name-mismatch"], note: "add vs sum" },
        problems: [],
      },
      { line: 3, ref: { id: 7 }, answer: { valid: true, categories: [], note: null }, problems: [] },
    ]);
  });

  it("reads CSV with a header, categories split by semicolons, and reports the file's line numbers", () => {
    const lines = readGoldFile(
      `key,id,verdict,categories,note\n${KEY},,Invalid,precision; other,"two\nlines"\n,12,valid,,\n`,
    );
    expect(lines).toEqual([
      {
        line: 3,
        ref: { key: KEY },
        answer: { valid: false, categories: ["precision", "other"], note: "two\nlines" },
        problems: [],
      },
      { line: 4, ref: { id: 12 }, answer: { valid: true, categories: [], note: null }, problems: [] },
    ]);
  });

  it("names each bad line and what is wrong with it", () => {
    const lines = readGoldFile(
      `{"key":"${KEY}","verdict":"maybe"}\nnot json\n{"verdict":"valid"}\n{"id":3,"key":"${KEY}","valid":false}\n{"id":4,"verdict":"valid","categories":["Bad Key"]}\n`,
    );
    expect(lines.map((line) => line.line)).toEqual([1, 2, 3, 4, 5]);
    expect(lines[0].problems.join()).toMatch(/valid" or "invalid/);
    expect(lines[1].problems).toEqual(["Not valid JSON."]);
    expect(lines[2].problems.join()).toMatch(/key or by id/);
    expect(lines[3].problems.join()).toMatch(/key or by id/);
    expect(lines[4].problems.join()).toMatch(/categories/);
  });

  it("finds every problem of a line, and keeps the record it names for the lookup", () => {
    const [line] = readGoldFile(`{"id":9,"verdict":"perhaps","categories":["made-up", "name-mismatch"]}`, {
      knownCategories: new Set(["name-mismatch"]),
    });
    expect(line.ref).toEqual({ id: 9 });
    expect(line.answer).toBeNull();
    expect(line.problems).toHaveLength(2);
    expect(line.problems[0]).toMatch(/valid" or "invalid/);
    expect(line.problems[1]).toMatch(/^Unknown error category: made-up /);
    const [other] = readGoldFile(`{"id":9,"categories":["made-up"]}`, { knownCategories: new Set(["name-mismatch"]) });
    expect(other.problems.join(" ")).toMatch(/Give a verdict/);
    expect(other.problems.join(" ")).toMatch(/Unknown error category: made-up/);
  });
});

describe("resolveGoldLines", () => {
  it("adds a record the dataset does not hold, or one named twice, to that line's one message", () => {
    const lines = readGoldFile(`{"id":5,"verdict":"maybe"}\n{"id":6,"valid":true}\n{"id":6,"valid":false}\n`);
    const { answers, errors } = resolveGoldLines(lines, {
      datasetName: "demo",
      recordIdOf: (ref) => ("id" in ref && ref.id === 6 ? 6 : undefined),
    });
    expect(answers).toEqual([]);
    expect(errors).toHaveLength(2);
    expect(errors[0].line).toBe(1);
    expect(errors[0].message).toMatch(/valid" or "invalid.* demo holds no record with id 5\./);
    expect(errors[1]).toEqual({ line: 3, message: "The record is named again (first on line 2)." });
  });

  it("answers every line when none is bad, and refuses an empty file", () => {
    expect(resolveGoldLines(readGoldFile(`{"id":2,"valid":true}`), dataset).answers).toEqual([
      { recordId: 2, valid: true, categories: [], note: null },
    ]);
    expect(resolveGoldLines(readGoldFile("\n"), dataset).errors).toEqual([
      { line: 1, message: "The file holds no gold answers." },
    ]);
  });
});

describe("goldFileRefusal", () => {
  it("summarises without repeating a listed line, and says when the list is cut", () => {
    expect(goldFileRefusal([{ line: 3, message: "Bad." }])).toEqual({
      message: "Nothing imported: 1 bad line.",
      lines: ["line 3: Bad."],
    });
    const many = Array.from({ length: 25 }, (_, index) => ({ line: index + 1, message: "Bad." }));
    const refusal = goldFileRefusal(many);
    expect(refusal.lines).toHaveLength(20);
    expect(refusal.message).toBe("Nothing imported: 25 bad lines; the first 20 are listed.");
  });
});
