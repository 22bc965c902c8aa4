import { describe, expect, it } from "vitest";

import { parseGoldFile } from "./gold-file";

const KEY = "a".repeat(64);

describe("parseGoldFile", () => {
  it("reads JSONL lines by key or id with a verdict, categories and a note", () => {
    const { rows, errors } = parseGoldFile(
      `{"key":"${KEY}","verdict":"invalid","categories":["name-mismatch"],"note":"add vs sum"}\n\n{"id":7,"valid":true}\n`,
    );
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      { line: 1, ref: { key: KEY }, answer: { valid: false, categories: ["name-mismatch"], note: "add vs sum" } },
      { line: 3, ref: { id: 7 }, answer: { valid: true, categories: [], note: null } },
    ]);
  });

  it("reads CSV with a header, categories split by semicolons, and reports the file's line numbers", () => {
    const { rows, errors } = parseGoldFile(
      `key,id,verdict,categories,note\n${KEY},,Invalid,precision; other,"two\nlines"\n,12,valid,,\n`,
    );
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      { line: 3, ref: { key: KEY }, answer: { valid: false, categories: ["precision", "other"], note: "two\nlines" } },
      { line: 4, ref: { id: 12 }, answer: { valid: true, categories: [], note: null } },
    ]);
  });

  it("names each bad line and what is wrong with it", () => {
    const { errors } = parseGoldFile(
      `{"key":"${KEY}","verdict":"maybe"}\nnot json\n{"verdict":"valid"}\n{"id":3,"key":"${KEY}","valid":false}\n{"id":4,"verdict":"valid","categories":["Bad Key"]}\n`,
    );
    expect(errors.map((error) => error.line)).toEqual([1, 2, 3, 4, 5]);
    expect(errors[0].message).toMatch(/valid" or "invalid/);
    expect(errors[1].message).toBe("Not valid JSON.");
    expect(errors[2].message).toMatch(/key or by id/);
    expect(errors[4].message).toMatch(/categories/);
  });

  it("refuses an empty file", () => {
    expect(parseGoldFile("\n").errors).toEqual([{ line: 1, message: "The file holds no gold answers." }]);
  });
});
