import { describe, expect, it } from "vitest";

import { cppRecipe, spliceCpp } from "./cpp";

describe("spliceCpp", () => {
  it("cuts the solution at its first `int main` and prefixes iostream and namespace std", () => {
    const program = spliceCpp(
      "int add(int a, int b) { return a + b; }\nint main() { return 0; }",
      "int main() { return add(1, 2) - 3; }",
    );
    expect(program).toBe(
      "#include <iostream>\nusing namespace std;\nint add(int a, int b) { return a + b; }\n\nint main() { return add(1, 2) - 3; }",
    );
  });

  it("keeps a solution without main whole", () => {
    expect(spliceCpp("int x = 1;", "int main() {}")).toContain("int x = 1;\nint main() {}");
  });
});

describe("cpp classification", () => {
  it("compiles with g++ first and reports a failed compile as COMPILATION_ERROR", () => {
    expect(cppRecipe.compile?.argv).toEqual(["g++", "-o", "test", "test.cpp"]);
    const failed = { exitCode: 1, timedOut: false, stdout: "", stderr: "error: x" };
    expect(cppRecipe.classify({ syntaxError: false, compile: failed, run: null })).toBe("COMPILATION_ERROR");
  });

  it("relies on the exit code (no failure text)", () => {
    const compiled = { exitCode: 0, timedOut: false, stdout: "", stderr: "" };
    const aborted = { exitCode: 134, timedOut: false, stdout: "", stderr: "Assertion `add(1, 2) == 4' failed." };
    expect(cppRecipe.classify({ syntaxError: false, compile: compiled, run: aborted })).toBe("RUNTIME_ERROR");
    expect(cppRecipe.classify({ syntaxError: false, compile: compiled, run: compiled })).toBe("PASSED");
  });
});
