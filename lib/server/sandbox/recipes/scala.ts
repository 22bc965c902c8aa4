import "server-only";

import { defineRecipe } from "./classify";
import { concatSplice } from "./splice-helpers";

export const scalaRecipe = defineRecipe({
  language: "scala",
  timeoutAllowanceMs: 25_000,
  failurePatterns: [],
  splice(solution, test) {
    const program = concatSplice(solution, test);
    return { files: [{ path: "test.sc", content: program }], program, syntaxError: null };
  },
  compile: null,
  // Scala 3's runner (scala-cli from 3.5 on) runs a `.sc` script directly; no build server.
  run: { argv: ["scala", "run", "--server=false", "test.sc"] },
  env: { SCALA_CLI_HOME: "/job/.scala-cli", COURSIER_CACHE: "/job/.cache/coursier" },
  toolchain: { commands: ["scala", "java"], version: ["scala", "--version"] },
  hello: {
    solution: "def add(a: Int, b: Int): Int = a + b\n",
    test: "assert(add(1, 2) == 3)\n",
  },
});
