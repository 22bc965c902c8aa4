import { describe, expect, it } from "vitest";

import { csharpRecipe, spliceCsharp } from "./csharp";
import { dartRecipe, spliceDart } from "./dart";
import { KOTLINC, kotlinRecipe, spliceKotlin } from "./kotlin";
import { SCALA_RUN_SCRIPT, scalaRecipe, wrapScalaScript } from "./scala";
import { spliceSwift, swiftRecipe } from "./swift";
import type { Recipe } from "./types";

function classify(recipe: Recipe, stdout: string, exitCode = 0) {
  return recipe.classify({ syntaxError: false, compile: null, run: { exitCode, timedOut: false, stdout, stderr: "" } });
}

describe("spliceCsharp", () => {
  it("hoists and dedupes using directives but not using statements", () => {
    const program = spliceCsharp(
      "using System;\nusing System.Linq;\nclass A { static int F() { using var s = new S(); return 1; } }",
      "using System;\nclass P { static void RunTests() { } }",
    );
    expect(program.match(/using System;/g)).toHaveLength(1);
    expect(program.startsWith("using System;\nusing System.Linq;")).toBe(true);
    expect(program).toContain("using var s = new S();");
  });

  it("makes bare static members public and renames RunTests to Main when there is no Main", () => {
    const program = spliceCsharp(
      "class A {\n    static int F() => 1;\n}",
      "class P {\n    static void RunTests() { }\n}",
    );
    expect(program).toContain("    public static int F() => 1;");
    expect(program).toContain("public static void Main(");
    expect(program).not.toContain("RunTests(");
  });

  it("keeps RunTests when a Main exists, and classifies 'Assertion failed'", () => {
    const program = spliceCsharp(
      "class A {}",
      "class P {\n    public static void Main() { RunTests(); }\n    static void RunTests() {}\n}",
    );
    expect(program).toContain("RunTests()");
    // A test that prints "Assertion failed" and carries on exits 0: WRONG_ANSWER in the reference.
    expect(classify(csharpRecipe, "Assertion failed: x")).toBe("WRONG_ANSWER");
    expect(classify(csharpRecipe, "Assertion failed: x", 1)).toBe("RUNTIME_ERROR");
    expect(csharpRecipe.splice("a", "b").files.map((f) => f.path)).toEqual([
      "MyProject/MyProject.csproj",
      "MyProject/Program.cs",
    ]);
  });
});

describe("spliceDart", () => {
  it("hoists imports and runs with asserts enabled", () => {
    const program = spliceDart(
      "import 'dart:math';\nint f() => max(1, 2);",
      "import 'dart:math';\nvoid main() { assert(f() == 2); }",
    );
    expect(program.match(/import 'dart:math';/g)).toHaveLength(1);
    expect(dartRecipe.run.argv).toEqual(["dart", "run", "--enable-asserts", "test.dart"]);
    // The reference has no failure text for Dart: only the exit code counts.
    expect(classify(dartRecipe, "Test 1 failed")).toBe("PASSED");
    expect(classify(dartRecipe, "", 255)).toBe("RUNTIME_ERROR");
  });
});

describe("spliceKotlin", () => {
  it("hoists imports (no semicolons), deduped and sorted as the reference does, above both parts", () => {
    const program = spliceKotlin(
      "import kotlin.math.max\nfun f() = max(1, 2)",
      "import kotlin.math.max\nimport java.util.*\ncheck(f() == 2)",
    );
    expect(program).toBe("import java.util.*\nimport kotlin.math.max\n\nfun f() = max(1, 2)\n\ncheck(f() == 2)");
    expect(kotlinRecipe.run.argv).toEqual([KOTLINC, "-script", "test.kts"]);
    expect(KOTLINC).toBe("/opt/verity/kotlin/bin/kotlinc");
    expect(classify(kotlinRecipe, "java.lang.AssertionError: x", 1)).toBe("RUNTIME_ERROR");
  });
});

describe("scala recipe", () => {
  it("concatenates into a .sc script; a failed assertion is RUNTIME_ERROR", () => {
    expect(scalaRecipe.splice("def f = 1", "assert(f == 1)").program).toBe("def f = 1\nassert(f == 1)");
    expect(classify(scalaRecipe, "", 1)).toBe("RUNTIME_ERROR");
    expect(classify(scalaRecipe, "java.lang.AssertionError: assertion failed", 1)).toBe("RUNTIME_ERROR");
    expect(scalaRecipe.timeoutAllowanceMs).toBe(25_000);
  });

  it("runs the script as Ammonite does: its statements in an object, run as the object initialises", () => {
    const job = scalaRecipe.splice("def f = 1", "assert(f == 1)");
    expect(job.files).toEqual([
      { path: "test.sc", content: "def f = 1\nassert(f == 1)" },
      { path: "VerityScript.scala", content: wrapScalaScript("def f = 1\nassert(f == 1)") },
    ]);
    expect(wrapScalaScript("x")).toMatch(/^object VerityScript \{\nx\n\}\n/);
    expect(scalaRecipe.run.argv).toEqual(["sh", "-c", SCALA_RUN_SCRIPT]);
    expect(SCALA_RUN_SCRIPT).toMatch(/dotty\.tools\.dotc\.Main .*VerityScript\.scala && exec java .*VerityScriptMain$/);
  });
});

describe("spliceSwift", () => {
  it("prepends import Foundation when the solution uses math names", () => {
    expect(
      spliceSwift("func f(_ x: Double) -> Double { sqrt(x) }", "assert(f(4) == 2)").startsWith("import Foundation\n"),
    ).toBe(true);
  });

  it("does not import Foundation twice or when nothing needs it", () => {
    expect(spliceSwift("import Foundation\nlet x = sqrt(4.0)", "").match(/import Foundation/g)).toHaveLength(1);
    expect(spliceSwift("func f() -> Int { 1 }", "assert(f() == 1)")).toBe("func f() -> Int { 1 }\nassert(f() == 1)");
    expect(classify(swiftRecipe, "test.swift:3: Assertion failed", 132)).toBe("RUNTIME_ERROR");
  });
});
