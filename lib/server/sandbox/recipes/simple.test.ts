import { describe, expect, it } from "vitest";

import { elixirRecipe, juliaRecipe, perlRecipe, pythonRecipe, rRecipe, rubyRecipe, shellRecipe } from "./simple";
import type { Recipe, StepOutcome } from "./types";

const ok: StepOutcome = { exitCode: 0, timedOut: false, stdout: "", stderr: "" };

function classify(recipe: Recipe, run: Partial<StepOutcome>) {
  return recipe.classify({ syntaxError: false, compile: null, run: { ...ok, ...run } });
}

describe.each([
  [pythonRecipe, "test.py", "python3"],
  [shellRecipe, "test.sh", "bash"],
  [elixirRecipe, "test.ex", "elixir"],
  [juliaRecipe, "test.jl", "julia"],
  [perlRecipe, "test.pl", "perl"],
  [rRecipe, "test.r", "Rscript"],
  [rubyRecipe, "test.rb", "ruby"],
])("%# simple recipe", (recipe, file, interpreter) => {
  it(`${recipe.language}: splices solution, newline, test into ${file}`, () => {
    const job = recipe.splice("A", "B");
    expect(job.program).toBe("A\nB");
    expect(job.files).toEqual([{ path: file, content: "A\nB" }]);
    expect(job.syntaxError).toBeNull();
    expect(recipe.run.argv).toEqual([interpreter, file]);
    expect(recipe.compile).toBeNull();
  });

  it(`${recipe.language}: a non-zero exit is RUNTIME_ERROR, a timeout TIME_LIMIT_EXCEEDED`, () => {
    expect(classify(recipe, { exitCode: 1 })).toBe("RUNTIME_ERROR");
    expect(classify(recipe, { exitCode: null, timedOut: true })).toBe("TIME_LIMIT_EXCEEDED");
    expect(classify(recipe, {})).toBe("PASSED");
  });
});

describe("failure texts of the simple languages", () => {
  it("python: AssertionError is WRONG_ANSWER", () => {
    expect(classify(pythonRecipe, { exitCode: 1, stderr: "Traceback…\nAssertionError" })).toBe("WRONG_ANSWER");
  });

  it("elixir: 'assertion fails' is WRONG_ANSWER", () => {
    expect(classify(elixirRecipe, { stdout: "assertion fails: 1 == 2" })).toBe("WRONG_ANSWER");
  });

  it("julia: AssertionError is WRONG_ANSWER", () => {
    expect(classify(juliaRecipe, { exitCode: 1, stderr: "ERROR: AssertionError: f(1) == 2" })).toBe("WRONG_ANSWER");
  });

  it("perl: 'failed' is WRONG_ANSWER even on exit 0", () => {
    expect(classify(perlRecipe, { stdout: "Test 3 failed\n" })).toBe("WRONG_ANSWER");
  });

  it("shell, r and ruby have no failure text: only the exit code counts", () => {
    for (const recipe of [shellRecipe, rRecipe, rubyRecipe]) {
      expect(recipe.failurePatterns).toEqual([]);
      expect(classify(recipe, { stdout: "AssertionError failed" })).toBe("PASSED");
    }
  });
});
