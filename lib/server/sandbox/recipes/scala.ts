import "server-only";

import { TOOLCHAINS_DIR } from "@/lib/server/sandbox/isolation";

import { defineRecipe } from "./classify";
import { JVM_CLASS_ARCHIVE } from "./java";
import { concatSplice } from "./splice-helpers";

/** Scala 3.3.6's compiler and libraries from Maven Central, installed by the sandbox install. */
const SCALA_LIB = `${TOOLCHAINS_DIR}/scala/lib`;

/**
 * The reference runs `test.sc` with Ammonite (`java -jar amm test.sc`), which wraps a script's
 * statements into an object and runs them in order as the object initialises. Ammonite is not on
 * Maven Central, so the same wrapping is done here and compiled with Scala 3.3.6's own compiler: a
 * failed assertion or exception, or a script that does not compile, exits 1 (RUNTIME_ERROR) as there.
 */
export function wrapScalaScript(program: string): string {
  return (
    `object VerityScript {\n${program}\n}\n\n` +
    "object VerityScriptMain {\n  def main(args: Array[String]): Unit = { val _ = VerityScript }\n}\n"
  );
}

// The compiler's JVM stops at the quick JIT tier and uses one GC thread: about 40% less CPU for a
// short compile; the script itself then runs on a JVM with the default JIT.
const SCALA_BUILD_SCRIPT =
  `mkdir -p classes && java -Xss8m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "${SCALA_LIB}/*" ` +
  "dotty.tools.dotc.Main -usejavacp -d classes -color:never VerityScript.scala";
const SCALA_START = ["java", "-Xss8m", "-cp", `classes:${SCALA_LIB}/*`, "VerityScriptMain"];
const SCALA_SWITCHED_BUILD_SCRIPT =
  `java -Xss8m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "${SCALA_LIB}/*" ` +
  "dotty.tools.dotc.Main -usejavacp -d verity.jar -color:never VerityScript.scala";
const SCALA_SWITCHED_START = ["java", "-Xss8m", "-cp", `verity.jar:${SCALA_LIB}/*`, "VerityScriptMain"];
export const SCALA_RUN_SCRIPT = `${SCALA_BUILD_SCRIPT} && exec ${SCALA_START.map((arg) => (arg.includes("*") ? `"${arg}"` : arg)).join(" ")}`;

export const scalaRecipe = defineRecipe({
  language: "scala",
  timeoutAllowanceMs: 25_000,
  failurePatterns: [],
  splice(solution, test) {
    const program = concatSplice(solution, test);
    return {
      files: [
        { path: "test.sc", content: program },
        { path: "VerityScript.scala", content: wrapScalaScript(program) },
      ],
      program,
      syntaxError: null,
    };
  },
  compile: null,
  run: { argv: ["sh", "-c", SCALA_RUN_SCRIPT] },
  // Compiled into a jar, so that the runs can share a class-data archive (java.ts).
  switched: {
    compile: { argv: ["sh", "-c", SCALA_SWITCHED_BUILD_SCRIPT] },
    run: { argv: SCALA_SWITCHED_START },
    runEnv: JVM_CLASS_ARCHIVE,
  },
  env: {},
  toolchain: {
    commands: ["java"],
    files: [`${SCALA_LIB}/scala3-compiler_3-3.3.6.jar`],
    version: ["sh", "-c", `java -cp "${SCALA_LIB}/*" dotty.tools.dotc.Main -version 2>&1`],
  },
  hello: {
    solution: "def add(a: Int, b: Int): Int = a + b\n",
    test: "assert(add(1, 2) == 3)\n",
  },
});
