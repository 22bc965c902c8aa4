import { describe, expect, it } from "vitest";

import { failingProgramLine, mapProgramLine } from "./failure-line";

const solution = "def add(a, b):\n    return a + b\n";
const test = "assert add(2, 2) == 4\nassert add(1, 1) == 3\n";

describe("failingProgramLine", () => {
  it("takes the innermost frame of a Python traceback in the job's own file", () => {
    const stderr =
      'Traceback (most recent call last):\n  File "/job/test.py", line 5, in <module>\n  File "/job/test.py", line 2, in add\n  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads\nAssertionError';
    expect(failingProgramLine(stderr)).toBe(2);
  });

  it("reads file:line from other runtimes and skips library frames", () => {
    expect(
      failingProgramLine(
        "node:internal/modules/cjs/loader:1228\n/job/test.js:14\n    assert.strictEqual(add(1, 1), 3);",
      ),
    ).toBe(14);
    expect(failingProgramLine("main.go:9:2: undefined: foo")).toBe(9);
  });

  it("is null when no line is named", () => {
    expect(failingProgramLine("Killed")).toBeNull();
    expect(failingProgramLine("")).toBeNull();
  });
});

describe("mapProgramLine", () => {
  it("maps a concatenated program back to the test and the solution", () => {
    const program = `${solution}\n${test}`;
    expect(mapProgramLine(program, { solution, test }, 5)).toEqual({ part: "test", line: 2 });
    expect(mapProgramLine(program, { solution, test }, 4)).toEqual({ part: "test", line: 1 });
    expect(mapProgramLine(program, { solution, test }, 2)).toEqual({ part: "solution", line: 2 });
  });

  it("finds parts wrapped in a harness, and maps harness lines to nothing", () => {
    const program = `#include <cassert>\n${solution}int main() {\n${test}return 0;\n}\n`;
    expect(mapProgramLine(program, { solution, test }, 6)).toEqual({ part: "test", line: 2 });
    expect(mapProgramLine(program, { solution, test }, 1)).toBeNull();
    expect(mapProgramLine(program, { solution, test }, 99)).toBeNull();
  });

  it("falls back to a line whose text occurs once when a recipe rewrote the blocks", () => {
    const hoisted = "import math\n\ndef area(r):\n    return math.pi * r * r\n";
    const tests = "import math\nassert area(1) == 3\n";
    const program = "import math\n\ndef area(r):\n    return math.pi * r * r\n\nassert area(1) == 3\n";
    expect(mapProgramLine(program, { solution: hoisted, test: tests }, 6)).toEqual({ part: "test", line: 2 });
    // The solution still appears verbatim, so its hoisted import maps to it.
    expect(mapProgramLine(program, { solution: hoisted, test: tests }, 1)).toEqual({ part: "solution", line: 1 });
    // A line in both parts, with neither part verbatim, is ambiguous: no mapping.
    expect(
      mapProgramLine("import math\nx = 1\n", { solution: "import math\ny = 2", test: "import math\nz = 3" }, 1),
    ).toBeNull();
  });
});
