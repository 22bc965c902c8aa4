import "server-only";

import { hoistLines, joinBlocks } from "./splice-helpers";
import { simpleRecipe } from "./simple";

/** Splices Dart: `import …;` lines of both parts hoisted and deduped, then solution and test. */
export function spliceDart(solution: string, test: string): string {
  const { hoisted, bodies } = hoistLines([solution, test], (line) => /^\s*import\s+[^;]+;/.test(line));
  return joinBlocks([hoisted.join("\n"), ...bodies]);
}

export const dartRecipe = simpleRecipe({
  language: "dart",
  file: "test.dart",
  interpreter: ["dart", "run", "--enable-asserts"],
  splice: spliceDart,
  env: { PUB_CACHE: "/job/.pub-cache", DART_SUPPRESS_ANALYTICS: "true" },
  version: ["dart", "--version"],
  hello: {
    solution: "int add(int a, int b) => a + b;\n",
    test: "void main() {\n  assert(add(1, 2) == 3);\n}\n",
  },
});
