import "server-only";

import type { Outcome } from "@/lib/server/sandbox/types";

import { classifyRun } from "./classify";
import { hoistLines, joinBlocks, splitLines } from "./splice-helpers";
import type { ClassifyInput, Recipe } from "./types";

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

/** JUnit failures mean WRONG_ANSWER; no tests found or none successful mean RUNTIME_ERROR (as the reference). */
export function classifyJava(input: ClassifyInput): Outcome {
  const base = classifyRun(input, []);
  if (base === "SYNTAX_ERROR" || base === "COMPILATION_ERROR" || base === "TIME_LIMIT_EXCEEDED") return base;
  if (!input.run) return base;
  const summary = parseJUnitSummary(input.run.stdout);
  if (summary && summary.failed > 0) return "WRONG_ANSWER";
  if (input.run.exitCode !== 0) return "RUNTIME_ERROR";
  if (!summary || summary.found === 0 || summary.successful === 0) return "RUNTIME_ERROR";
  return "PASSED";
}

const classPath = [JUNIT_CONSOLE_JAR, ...EXTRA_JARS].join(":");

export const javaRecipe: Recipe = {
  language: "java",
  timeoutAllowanceMs: 3_000,
  failurePatterns: ["tests failed"],
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
      // DESIGN: test classes are those with "Test" anywhere in the name (JUnit's default is narrower).
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
  classify: classifyJava,
};
