import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";

import { spreadsheetSafe } from "./spreadsheet-safe";

describe("spreadsheetSafe", () => {
  it("turns every cell a spreadsheet would read as a formula into text", () => {
    for (const cell of [
      '=HYPERLINK("http://evil.example","x")',
      "+1+cmd|' /C calc'!A0",
      "-2+3",
      "@SUM(A1:A9)",
      "\t=1",
      "\r=1",
    ])
      expect(spreadsheetSafe(cell)).toBe(`'${cell}`);
  });

  it("leaves other text, numbers and empty cells as they are", () => {
    expect(spreadsheetSafe("a note = fine")).toBe("a note = fine");
    expect(spreadsheetSafe(" =not first")).toBe(" =not first");
    expect(spreadsheetSafe("")).toBe("");
    expect(spreadsheetSafe(-0.25)).toBe(-0.25);
    expect(spreadsheetSafe(3)).toBe(3);
  });

  it("survives CSV quoting: the file reads back with the apostrophe first", () => {
    const line = stringify([[spreadsheetSafe('=HYPERLINK("http://evil.example","a,b")'), -0.5]]);
    expect(parse(line)).toEqual([[`'=HYPERLINK("http://evil.example","a,b")`, "-0.5"]]);
  });
});
