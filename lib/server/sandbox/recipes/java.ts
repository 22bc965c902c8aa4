import "server-only";

import type { Outcome } from "@/lib/server/sandbox/types";

import { defineRecipe } from "./classify";
import type { StepOutcome } from "./types";

/**
 * The reference image's Java class path (`/opt/java_libs` there): JUnit console 1.11.4, org.json
 * 20241224 and Gson 2.11.0, installed from Maven Central by `npm run sandbox:install` (or, where
 * Maven Central cannot be reached, links to Debian's junit5, libjson-java and libgoogle-gson-java).
 */
const JAVA_LIBS_DIR = "/opt/verity/java";
export const JUNIT_CONSOLE_JAR = `${JAVA_LIBS_DIR}/junit-platform-console-standalone.jar`;
const EXTRA_JARS = [`${JAVA_LIBS_DIR}/json.jar`, `${JAVA_LIBS_DIR}/gson.jar`];

/** The reference sets CLASSPATH for javac; the console launcher gets its own `--class-path`. */
export const CLASSPATH = [EXTRA_JARS[0], JUNIT_CONSOLE_JAR, EXTRA_JARS[1], "."].join(":");

const IMPORT_LINE = /^import /;
const DROPPED_LINE = /^(import|package) /;

/**
 * Splices Java as the reference does, quirks included: in the solution only `public class`,
 * `private class` and `protected class` become `class` (a `public interface`, `public enum` or
 * `public record` stays public), the test is left as it is, and lines starting with `import ` or
 * `package ` are dropped from both, the imports deduplicated on top. So a test whose class is
 * `public class FooTest` does not compile in `test.java`, there and here.
 */
export function spliceJava(solution: string, test: string): string {
  const mainCode = solution
    .replaceAll("public class", "class")
    .replaceAll("private class", "class")
    .replaceAll("protected class", "class");
  const mainLines = mainCode.split("\n");
  const testLines = test.split("\n");
  const imports = [...new Set([...mainLines, ...testLines].filter((line) => IMPORT_LINE.test(line)))];
  const body = (lines: string[]) => lines.filter((line) => !DROPPED_LINE.test(line)).join("\n");
  return `${imports.join("\n")}\n${body(mainLines)}\n${body(testLines)}`;
}

/** A public top-level class in the test part: the reference leaves it public, so `test.java` fails to compile. */
const PUBLIC_TEST_CLASS = /^public\s+(?:(?:final|abstract|static|strictfp)\s+)*class\s+(\w+)/m;

/**
 * The one-sentence explanation a person needs when the reference's behaviour, reproduced here, is a
 * quirk rather than a fault of the record (null when there is none).
 */
export function javaReferenceNote(test: string): string | null {
  return PUBLIC_TEST_CLASS.test(test) ? "The reference sandbox fails this record: its test class is public." : null;
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
 * The reference's second look at a Java run that exited 0 (it reads the same counts from JUnit's
 * XML report): no summary or no test found is RUNTIME_ERROR, a failed test WRONG_ANSWER, none
 * successful RUNTIME_ERROR. A failing test makes the console launcher exit 1, which is
 * RUNTIME_ERROR before this is ever reached, so in practice Java failures come out as RUNTIME_ERROR
 * there and here.
 */
export function checkJUnitSummary(run: StepOutcome): Outcome {
  const summary = parseJUnitSummary(run.stdout);
  if (!summary || summary.found === 0) return "RUNTIME_ERROR";
  if (summary.failed > 0) return "WRONG_ANSWER";
  return summary.successful > 0 ? "PASSED" : "RUNTIME_ERROR";
}

/**
 * A switched JVM program's runs share a class-data archive: the first run writes the classes it
 * loaded from jars (JUnit's launcher and engines, the libraries, Kotlin's and Scala's runtimes and
 * the compiled program) and the others map it, a third less CPU per start. A missing or unusable
 * archive only means a slower start; CDS's own log stays off. The class path must hold jars only (a
 * class folder on it makes writing the archive fail the run at exit): Kotlin and Scala compile their
 * switched programs into a jar for it.
 */
/**
 * A compiler's JVM for one short compile: the quick JIT tier only and one GC thread, about a third
 * less time for kotlinc (3.2 s against 4.1–6.8 s for a two-line script here). The compiled program is
 * the same; only the compiler runs differently.
 */
export const SHORT_COMPILE_JVM_OPTIONS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];

export const JVM_CLASS_ARCHIVE = {
  first: { JDK_JAVA_OPTIONS: "-XX:ArchiveClassesAtExit=verity.jsa -Xlog:cds*=off" },
  rest: { JDK_JAVA_OPTIONS: "-XX:SharedArchiveFile=verity.jsa -Xlog:cds*=off" },
};

const JAVA_COMPILE = { argv: ["javac", "test.java"] };
const JAVA_RUN = {
  argv: [
    "java",
    "-jar",
    JUNIT_CONSOLE_JAR,
    "--class-path",
    [".", ...EXTRA_JARS].join(":"),
    "--scan-class-path",
    // The reference also names the `execute` subcommand (JUnit 1.10+); without it 1.11 does the same
    // (with a deprecation note on stderr) and Debian 12's JUnit 1.9, the fallback, still works.
    // No --include-classname: JUnit's default filter `^(Test.*|.+[.$]Test.*|.*Tests?)$`, as in the
    // reference, so a class named e.g. `MyTestCase` is not run ("No tests found").
    "--disable-banner",
    "--disable-ansi-colors",
    // The reference reads the counts from `--reports-dir reports`; the summary carries the same.
    "--details=summary",
  ],
};

export const javaRecipe = defineRecipe({
  language: "java",
  timeoutAllowanceMs: 3_000,
  failurePatterns: [],
  checkPassedRun: checkJUnitSummary,
  splice(solution, test) {
    const program = spliceJava(solution, test);
    return {
      files: [{ path: "test.java", content: program }],
      program,
      syntaxError: null,
      referenceNote: javaReferenceNote(test),
    };
  },
  compile: JAVA_COMPILE,
  run: JAVA_RUN,
  switched: {
    compile: { argv: ["javac", ...SHORT_COMPILE_JVM_OPTIONS.map((option) => `-J${option}`), "test.java"] },
    run: JAVA_RUN,
    runEnv: JVM_CLASS_ARCHIVE,
  },
  env: { CLASSPATH },
  toolchain: { commands: ["javac", "java"], files: [JUNIT_CONSOLE_JAR], version: ["javac", "-version"] },
  hello: {
    solution: "public class Adder {\n    public int add(int a, int b) { return a + b; }\n}\n",
    test:
      "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\n" +
      "class AdderTest {\n    @Test\n    public void adds() {\n        assertEquals(3, new Adder().add(1, 2));\n    }\n}\n",
  },
});
