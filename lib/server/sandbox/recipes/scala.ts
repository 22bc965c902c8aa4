import "server-only";

import { simpleRecipe } from "./simple";

export const scalaRecipe = simpleRecipe({
  language: "scala",
  file: "test.sc",
  // Scala 3's runner (scala-cli from 3.5 on) runs a `.sc` script directly; no build server.
  interpreter: ["scala", "run", "--server=false"],
  timeoutAllowanceMs: 25_000,
  env: { SCALA_CLI_HOME: "/job/.scala-cli", COURSIER_CACHE: "/job/.cache/coursier" },
  commands: ["scala", "java"],
  version: ["scala", "--version"],
  hello: {
    solution: "def add(a: Int, b: Int): Int = a + b\n",
    test: "assert(add(1, 2) == 3)\n",
  },
});
