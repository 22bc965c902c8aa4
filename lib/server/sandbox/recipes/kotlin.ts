import "server-only";

import { hoistLines, joinBlocks } from "./splice-helpers";
import { simpleRecipe } from "./simple";

/** Splices Kotlin scripts: `import` lines of both parts hoisted and deduped, then solution and test. */
export function spliceKotlin(solution: string, test: string): string {
  const { hoisted, bodies } = hoistLines([solution, test], (line) =>
    /^\s*import\s+[\w.*`]+(\s+as\s+\w+)?\s*;?\s*$/.test(line),
  );
  return joinBlocks([hoisted.join("\n"), ...bodies]);
}

export const kotlinRecipe = simpleRecipe({
  language: "kotlin",
  file: "test.kts",
  interpreter: ["kotlinc", "-script"],
  splice: spliceKotlin,
  timeoutAllowanceMs: 10_000,
  commands: ["kotlinc", "java"],
  version: ["kotlinc", "-version"],
  hello: {
    solution: "fun add(a: Int, b: Int): Int = a + b\n",
    test: 'check(add(1, 2) == 3) { "add is wrong" }\n',
  },
});
