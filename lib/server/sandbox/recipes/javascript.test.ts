import { describe, expect, it } from "vitest";

import { callsFunction, definesFunction, javascriptRecipe, spliceJavaScript, typescriptRecipe } from "./javascript";

describe("spliceJavaScript", () => {
  it("appends a call to demoTesting when the test defines it but never calls it", () => {
    const program = spliceJavaScript("const f = (x) => x;", "const demoTesting = () => {\n  f(1);\n};");
    expect(program.trimEnd().endsWith("demoTesting()")).toBe(true);
  });

  it("does not call twice when the test already calls its entry point", () => {
    const test = "function fullTesting() { f(); }\nfullTesting();";
    expect(spliceJavaScript("function f() {}", test)).toBe(`function f() {}\n${test}`);
  });

  it("leaves tests without an entry point alone", () => {
    expect(spliceJavaScript("function f() {}", "f();")).toBe("function f() {}\nf();");
  });

  it("recognises declarations, function expressions and arrows", () => {
    expect(definesFunction("function demoTesting() {}", "demoTesting")).toBe(true);
    expect(definesFunction("async function demoTesting() {}", "demoTesting")).toBe(true);
    expect(definesFunction("let demoTesting = async () => {}", "demoTesting")).toBe(true);
    expect(definesFunction("var demoTesting = function () {}", "demoTesting")).toBe(true);
    expect(definesFunction("const demoTestingX = () => {}", "demoTesting")).toBe(false);
    expect(callsFunction("function demoTesting() {}", "demoTesting")).toBe(false);
    expect(callsFunction("obj.demoTesting()", "demoTesting")).toBe(false);
    expect(callsFunction("await demoTesting();", "demoTesting")).toBe(true);
  });
});

describe("javascript and typescript recipes", () => {
  it("run with node and tsx", () => {
    expect(javascriptRecipe.run.argv).toEqual(["node", "test.js"]);
    expect(typescriptRecipe.run.argv).toEqual(["tsx", "test.ts"]);
    expect(typescriptRecipe.splice("a", "b").files).toEqual([{ path: "test.ts", content: "a\nb" }]);
  });

  it("classify 'failed' on exit 0 as WRONG_ANSWER and a thrown AssertionError as RUNTIME_ERROR", () => {
    for (const recipe of [javascriptRecipe, typescriptRecipe]) {
      const base = { syntaxError: false, compile: null };
      expect(
        recipe.classify({ ...base, run: { exitCode: 0, timedOut: false, stdout: "Test 2 failed", stderr: "" } }),
      ).toBe("WRONG_ANSWER");
      expect(
        recipe.classify({
          ...base,
          run: { exitCode: 1, timedOut: false, stdout: "", stderr: "AssertionError [ERR_ASSERTION]" },
        }),
      ).toBe("RUNTIME_ERROR");
      expect(
        recipe.classify({ ...base, run: { exitCode: 1, timedOut: false, stdout: "", stderr: "TypeError: x" } }),
      ).toBe("RUNTIME_ERROR");
    }
  });
});
