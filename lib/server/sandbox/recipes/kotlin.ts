import "server-only";

import { defineRecipe } from "./classify";
import { hoistLines, joinBlocks } from "./splice-helpers";

/** Splices Kotlin scripts: `import` lines of both parts hoisted and deduped, then solution and test. */
export function spliceKotlin(solution: string, test: string): string {
  const { hoisted, bodies } = hoistLines([solution, test], (line) => /^\s*import\s+[\w.*`]+(\s+as\s+\w+)?\s*;?\s*$/.test(line));
  return joinBlocks([hoisted.join("\n"), ...bodies]);
}

export const kotlinRecipe = defineRecipe({
  language: "kotlin",
  timeoutAllowanceMs: 10_000,
  failurePatterns: [],
  splice(solution, test) {
    const program = spliceKotlin(solution, test);
    return { files: [{ path: "test.kts", content: program }], program, syntaxError: null };
  },
  compile: null,
  run: { argv: ["kotlinc", "-script", "test.kts"] },
  env: {},
  toolchain: { commands: ["kotlinc", "java"], version: ["kotlinc", "-version"] },
  hello: {
    solution: "fun add(a: Int, b: Int): Int = a + b\n",
    test: 'check(add(1, 2) == 3) { "add is wrong" }\n',
  },
});
