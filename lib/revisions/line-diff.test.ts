import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { diffLines, unifiedDiff } from "./line-diff";

const side = (lines: ReturnType<typeof diffLines>, kind: "removed" | "added") =>
  lines
    .filter((line) => line.kind === "same" || line.kind === kind)
    .map((line) => line.text)
    .join("\n");

describe("diffLines", () => {
  it("shows the one changed expected value of a test as a removed and an added line", () => {
    const before = "def test():\n    assert fact(4) == 24\n    assert fact(5) == 121\n\ntest()";
    const after = before.replace("121", "120");
    expect(diffLines(before, after).filter((line) => line.kind !== "same")).toEqual([
      { kind: "removed", text: "    assert fact(5) == 121" },
      { kind: "added", text: "    assert fact(5) == 120" },
    ]);
    expect(unifiedDiff(before, after, 0)).toBe("@@\n-    assert fact(5) == 121\n+    assert fact(5) == 120\n@@");
  });

  it("rebuilds both texts from the diff, and keeps as many lines as a longest common subsequence", () => {
    const text = fc.array(fc.constantFrom("a", "b", "c", ""), { maxLength: 12 }).map((lines) => lines.join("\n"));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const lines = diffLines(before, after);
        expect(side(lines, "removed")).toBe(before);
        expect(side(lines, "added")).toBe(after);
        const a = before.split("\n");
        const b = after.split("\n");
        // Reference LCS length, computed the plain way.
        const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
        for (let i = 1; i <= a.length; i++)
          for (let j = 1; j <= b.length; j++)
            table[i][j] = a[i - 1] === b[j - 1] ? table[i - 1][j - 1] + 1 : Math.max(table[i - 1][j], table[i][j - 1]);
        expect(lines.filter((line) => line.kind === "same")).toHaveLength(table[a.length][b.length]);
      }),
    );
  });
});
