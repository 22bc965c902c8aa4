import "server-only";

import type { Outcome } from "@/lib/server/sandbox/types";

import { defineRecipe } from "./classify";
import { hoistLines, joinBlocks, splitLines } from "./splice-helpers";
import type { StepOutcome } from "./types";

// Debian's `junit5` package; its manifest pulls in the Jupiter engine jars next to it.
export const JUNIT_CONSOLE_JAR = "/usr/share/java/junit-platform-console-standalone.jar";
// The reference puts org.json and Gson on the class path; harmless when absent.
const EXTRA_JARS = ["/usr/share/java/json.jar", "/usr/share/java/gson.jar"];

const TOP_LEVEL_PUBLIC_TYPE =
  /^public\s+((?:(?:abstract|final|sealed|non-sealed|strictfp|static)\s+)*(?:class|interface|enum|record|@interface)\b)/;

/**
 * Splices Java: drops `package` lines, makes top-level types package-private (one file may hold only
 * one public type, named after the file), and hoists and dedupes imports from both parts.
 */
export function spliceJava(solution: string, test: string): string {
  const clean = (source: string) =>
    splitLines(source)
      .filter((line) => !/^\s*package\s+[\w.]+\s*;/.test(line))
      .map((line) => line.replace(TOP_LEVEL_PUBLIC_TYPE, "$1"))
      .join("\n");
  const { hoisted, bodies } = hoistLines([clean(solution), clean(test)], (line) =>
    /^\s*import\s+(static\s+)?[\w.*]+\s*;\s*$/.test(line),
  );
  return joinBlocks([hoisted.join("\n"), ...bodies]);
}

type JUnitSummary = { found: number; successful: number; failed: number };

/** Reads the `[ N tests found ]` block JUnit's console launcher prints with `--details=summary`. */
export function parseJUnitSummary(stdout: string): JUnitSummary | null {
  const count = (label: string) => {
    const match = new RegExp(`\\[\\s*(\\d+) tests ${label}\\s*\\]`).exec(stdout);
    return match ? Number(match[1]) : null;
  };
  const found = count("found");
  if (found === null) return null;
  return { found, successful: count("successful") ?? 0, failed: count("failed") ?? 0 };
}

/**
 * The reference's second look at a Java run that exited 0, from JUnit's summary: no summary or no
 * test found is RUNTIME_ERROR, a failed test WRONG_ANSWER, none successful RUNTIME_ERROR. A failing
 * test makes the console launcher exit 1, which is RUNTIME_ERROR before this is ever reached, so in
 * practice Java failures come out as RUNTIME_ERROR there and here.
 */
export function checkJUnitSummary(run: StepOutcome): Outcome {
  const summary = parseJUnitSummary(run.stdout);
  if (!summary || summary.found === 0) return "RUNTIME_ERROR";
  if (summary.failed > 0) return "WRONG_ANSWER";
  return summary.successful > 0 ? "PASSED" : "RUNTIME_ERROR";
}

const classPath = [JUNIT_CONSOLE_JAR, ...EXTRA_JARS].join(":");

export const javaRecipe = defineRecipe({
  language: "java",
  timeoutAllowanceMs: 3_000,
  failurePatterns: [],
  checkPassedRun: checkJUnitSummary,
  splice(solution, test) {
    const program = spliceJava(solution, test);
    return { files: [{ path: "Main.java", content: program }], program, syntaxError: null };
  },
  compile: { argv: ["javac", "-encoding", "UTF-8", "-nowarn", "-cp", classPath, "-d", "classes", "Main.java"] },
  run: {
    argv: [
      "java",
      "-jar",
      JUNIT_CONSOLE_JAR,
      "--class-path",
      ["classes", ...EXTRA_JARS].join(":"),
      "--scan-class-path",
      // Test classes are those with "Test" anywhere in the name. JUnit's default, which the reference
      // keeps, is `^(Test.*|.+[.$]Test.*|.*Tests?)$`: a class such as `MyTestCase` runs here and is "No
      // tests found" (RUNTIME_ERROR) there (docs/sandbox.md, known rule differences).
      "--include-classname",
      "^.*Test.*$",
      "--disable-banner",
      "--disable-ansi-colors",
      "--details=summary",
    ],
  },
  env: {},
  toolchain: { commands: ["javac", "java"], files: [JUNIT_CONSOLE_JAR], version: ["javac", "-version"] },
  hello: {
    solution: "public class Adder {\n    public int add(int a, int b) { return a + b; }\n}\n",
    test:
      "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\n" +
      "public class AdderTest {\n    @Test\n    public void adds() {\n        assertEquals(3, new Adder().add(1, 2));\n    }\n}\n",
  },
});
