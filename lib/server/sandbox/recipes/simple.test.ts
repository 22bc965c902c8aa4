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
  it("none has failure text in the reference: a crash is RUNTIME_ERROR, exit 0 PASSED", () => {
    const recipes = [pythonRecipe, shellRecipe, elixirRecipe, juliaRecipe, perlRecipe, rRecipe, rubyRecipe];
    for (const recipe of recipes) {
      expect(recipe.failurePatterns).toEqual([]);
      expect(classify(recipe, { stdout: "AssertionError failed" })).toBe("PASSED");
    }
    expect(classify(pythonRecipe, { exitCode: 1, stderr: "Traceback…\nAssertionError" })).toBe("RUNTIME_ERROR");
    expect(classify(juliaRecipe, { exitCode: 1, stderr: "ERROR: AssertionError: f(1) == 2" })).toBe("RUNTIME_ERROR");
    expect(classify(perlRecipe, { exitCode: 1, stderr: "#   Failed test 'Test 3'\n" })).toBe("RUNTIME_ERROR");
  });
});
