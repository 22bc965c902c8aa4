import "server-only";

import { defineRecipe } from "./classify";
import { hoistLines, joinBlocks } from "./splice-helpers";

/** Splices Dart: `import …;` lines of both parts hoisted and deduped, then solution and test. */
export function spliceDart(solution: string, test: string): string {
  const { hoisted, bodies } = hoistLines([solution, test], (line) => /^\s*import\s+[^;]+;/.test(line));
  return joinBlocks([hoisted.join("\n"), ...bodies]);
}

export const dartRecipe = defineRecipe({
  language: "dart",
  timeoutAllowanceMs: 0,
  failurePatterns: [],
  splice(solution, test) {
    const program = spliceDart(solution, test);
    return { files: [{ path: "test.dart", content: program }], program, syntaxError: null };
  },
  compile: null,
  run: { argv: ["dart", "run", "--enable-asserts", "test.dart"] },
  env: { PUB_CACHE: "/job/.pub-cache", DART_SUPPRESS_ANALYTICS: "true" },
  toolchain: { commands: ["dart"], version: ["dart", "--version"] },
  hello: {
    solution: "int add(int a, int b) => a + b;\n",
    test: "void main() {\n  assert(add(1, 2) == 3);\n}\n",
  },
});
