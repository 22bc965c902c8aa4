import "server-only";

import { TOOLCHAINS_DIR } from "@/lib/server/sandbox/isolation";

import { JVM_CLASS_ARCHIVE, SHORT_COMPILE_JVM_OPTIONS } from "./java";
import { simpleRecipe } from "./simple";

/** Kotlin 1.9.24's compiler from Maven Central, laid out by the sandbox install as kotlinc's distribution. */
export const KOTLINC = `${TOOLCHAINS_DIR}/kotlin/bin/kotlinc`;

// The reference's Kotlin import pattern: any line that is `import …` without a semicolon.
const KOTLIN_IMPORT = /^\s*import\s+[^;]+$/;

/**
 * Splices Kotlin scripts as the reference does: the `import` lines of both parts, deduplicated and
 * sorted, on top; then the solution and the test, each trimmed, a blank line apart.
 */
export function spliceKotlin(solution: string, test: string): string {
  const imports = (source: string) => source.split("\n").filter((line) => KOTLIN_IMPORT.test(line));
  const rest = (source: string) =>
    source
      .split("\n")
      .filter((line) => !KOTLIN_IMPORT.test(line))
      .join("\n")
      .trim();
  const all = [...new Set([...imports(solution), ...imports(test)].map((line) => line.trim()))].sort();
  const block = all.length > 0 ? `${all.join("\n")}\n\n` : "";
  return `${block}${rest(solution)}\n\n${rest(test)}`;
}

const KOTLIN_LIB = `${TOOLCHAINS_DIR}/kotlin/lib`;
const KOTLIN_RUNTIME = [`${KOTLIN_LIB}/kotlin-stdlib.jar`, `${KOTLIN_LIB}/kotlin-script-runtime.jar`];

/**
 * A compiled script runs by constructing its class (`test.kts` is `Test`). The launcher does that by
 * name (a direct reference to a script class from another file breaks Kotlin 1.9's compiler) and ends
 * as `kotlinc -script` does when the script throws: the trace on stderr, exit code 3.
 */
const KOTLIN_LAUNCHER = `import java.lang.reflect.InvocationTargetException
import kotlin.system.exitProcess

fun main(args: Array<String>) {
    try {
        Class.forName("Test").getConstructor(Array<String>::class.java).newInstance(args)
    } catch (thrown: InvocationTargetException) {
        (thrown.cause ?: thrown).printStackTrace()
        exitProcess(3)
    }
}
`;

/**
 * The script compiled once, with its launcher, into a jar, then run on a plain JVM as often as
 * needed, the runs sharing a class-data archive (a jar, not a class folder, so the archive can be
 * written).
 */
const KOTLIN_SWITCHED = {
  compile: {
    argv: [
      KOTLINC,
      "-Xallow-any-scripts-in-source-roots",
      "-nowarn",
      "test.kts",
      "VerityKotlinMain.kt",
      "-d",
      "verity.jar",
    ],
  },
  // kotlinc's launcher starts `java`, which reads JDK_JAVA_OPTIONS.
  compileEnv: { JDK_JAVA_OPTIONS: SHORT_COMPILE_JVM_OPTIONS.join(" ") },
  run: { argv: ["java", "-cp", ["verity.jar", ...KOTLIN_RUNTIME].join(":"), "VerityKotlinMainKt"] },
  files: [{ path: "VerityKotlinMain.kt", content: KOTLIN_LAUNCHER }],
  runEnv: JVM_CLASS_ARCHIVE,
};

export const kotlinRecipe = simpleRecipe({
  language: "kotlin",
  file: "test.kts",
  interpreter: [KOTLINC, "-script"],
  splice: spliceKotlin,
  timeoutAllowanceMs: 10_000,
  commands: [KOTLINC, "java"],
  version: [KOTLINC, "-version"],
  switched: KOTLIN_SWITCHED,
  hello: {
    solution: "fun add(a: Int, b: Int): Int = a + b\n",
    test: 'check(add(1, 2) == 3) { "add is wrong" }\n',
  },
});
