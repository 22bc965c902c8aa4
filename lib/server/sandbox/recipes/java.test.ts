import { describe, expect, it } from "vitest";

import { checkJUnitSummary, javaRecipe, javaReferenceNote, parseJUnitSummary, spliceJava } from "./java";

describe("spliceJava", () => {
  it("as the reference: package lines dropped, imports deduped on top, only the solution's `public class` made package-private", () => {
    const solution =
      "package com.acme;\n\nimport java.util.List;\n\npublic class Adder {\n    public static class Inner {}\n}";
    const test =
      "import java.util.List;\nimport org.junit.jupiter.api.Test;\n\npublic final class AdderTest {\n    @Test\n    public void t() {}\n}";
    const program = spliceJava(solution, test);
    expect(program).not.toContain("package com.acme");
    expect(program.match(/import java\.util\.List;/g)).toHaveLength(1);
    expect(program.indexOf("import org.junit.jupiter.api.Test;")).toBeLessThan(program.indexOf("class Adder"));
    expect(program).toContain("\nclass Adder {");
    expect(program).toContain("public static class Inner");
    // The test is left as it is: a public test class fails to compile in test.java, as there.
    expect(program).toContain("\npublic final class AdderTest {");
  });

  it("keeps a solution's public interface, enum or record public (the reference replaces `public class` only)", () => {
    const program = spliceJava("public interface Shape {}\npublic enum Color { RED }", "class ShapeTest {}");
    expect(program).toContain("public interface Shape {}");
    expect(program).toContain("public enum Color");
  });

  it("writes test.java and compiles it with javac, the reference's class path in CLASSPATH", () => {
    expect(javaRecipe.splice("class A {}", "class ATest {}").files[0].path).toBe("test.java");
    expect(javaRecipe.compile?.argv).toEqual(["javac", "test.java"]);
    expect(javaRecipe.env.CLASSPATH).toBe(
      "/opt/verity/java/json.jar:/opt/verity/java/junit-platform-console-standalone.jar:/opt/verity/java/gson.jar:.",
    );
  });

  it("keeps JUnit's default class filter (no --include-classname)", () => {
    expect(javaRecipe.run.argv).not.toContain("--include-classname");
    expect(javaRecipe.run.argv).toContain("--scan-class-path");
  });

  it("says in one sentence why a record with a public test class fails", () => {
    expect(javaRecipe.splice("class A {}", "public class ATest {}").referenceNote).toBe(
      "The reference sandbox fails this record: its test class is public.",
    );
    expect(javaReferenceNote("class ATest {}")).toBeNull();
  });
});

const summary = (found: number, ok: number, failed: number) =>
  `[ ${found} tests found ]\n[ ${ok} tests successful ]\n[ ${failed} tests failed ]\n`;

describe("java classification", () => {
  const compiled = { exitCode: 0, timedOut: false, stdout: "", stderr: "" };
  const run = (stdout: string, exitCode: number) => ({ exitCode, timedOut: false, stdout, stderr: "" });
  const classify = (stdout: string, exitCode: number) =>
    javaRecipe.classify({ syntaxError: false, compile: compiled, run: run(stdout, exitCode) });

  it("reads the JUnit summary", () => {
    expect(parseJUnitSummary(summary(3, 2, 1))).toEqual({ found: 3, successful: 2, failed: 1 });
    expect(parseJUnitSummary("no summary")).toBeNull();
  });

  it("a failing JUnit test makes the launcher exit 1: RUNTIME_ERROR, as in the reference", () => {
    expect(classify(summary(2, 1, 1), 1)).toBe("RUNTIME_ERROR");
  });

  it("on exit 0: no test found or no summary is RUNTIME_ERROR, a failure WRONG_ANSWER, all green PASSED", () => {
    expect(classify(summary(0, 0, 0), 0)).toBe("RUNTIME_ERROR");
    expect(classify("no summary", 0)).toBe("RUNTIME_ERROR");
    expect(classify(summary(2, 1, 1), 0)).toBe("WRONG_ANSWER");
    expect(classify(summary(2, 2, 0), 0)).toBe("PASSED");
    expect(checkJUnitSummary(run(summary(1, 0, 0), 0))).toBe("RUNTIME_ERROR");
  });

  it("keeps compile errors and timeouts", () => {
    expect(javaRecipe.classify({ syntaxError: false, compile: { ...compiled, exitCode: 1 }, run: null })).toBe(
      "COMPILATION_ERROR",
    );
    expect(
      javaRecipe.classify({
        syntaxError: false,
        compile: compiled,
        run: { exitCode: null, timedOut: true, stdout: "", stderr: "" },
      }),
    ).toBe("TIME_LIMIT_EXCEEDED");
  });
});
