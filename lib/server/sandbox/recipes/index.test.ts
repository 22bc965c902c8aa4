import { describe, expect, it } from "vitest";

import { LANGUAGES } from "@/lib/records/languages";

import { getRecipe, RECIPES, stepTimeoutMs } from "./index";

describe("recipes index", () => {
  it("has a recipe for every language, keyed by its own id", () => {
    expect(Object.keys(RECIPES).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) expect(getRecipe(language).language).toBe(language);
  });

  it("adds the per-language allowance to the 5 s default", () => {
    const expected: Record<string, number> = {
      cpp: 8_000,
      java: 8_000,
      go: 6_000,
      typescript: 6_000,
      rust: 15_000,
      csharp: 15_000,
      kotlin: 15_000,
      scala: 30_000,
      python: 5_000,
      ruby: 5_000,
    };
    for (const [language, ms] of Object.entries(expected)) {
      expect(stepTimeoutMs(language as keyof typeof RECIPES)).toBe(ms);
    }
    expect(stepTimeoutMs("scala", 30_000)).toBe(55_000);
  });

  it("gives every recipe a hello program that its own splice accepts", () => {
    for (const language of LANGUAGES) {
      const recipe = getRecipe(language);
      const job = recipe.splice(recipe.hello.solution, recipe.hello.test);
      expect(job.syntaxError).toBeNull();
      expect(job.files.length).toBeGreaterThan(0);
      expect(recipe.toolchain.version.length).toBeGreaterThan(0);
    }
  });
});
