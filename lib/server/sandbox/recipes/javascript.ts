import "server-only";

import { defineRecipe } from "./classify";
import { concatSplice } from "./splice-helpers";

const ENTRY_POINTS = ["demoTesting", "fullTesting"] as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** True when `name` is defined as a function (declaration, function expression or arrow). */
export function definesFunction(source: string, name: string): boolean {
  const id = escapeRegExp(name);
  return [
    new RegExp(`\\bfunction\\s*\\*?\\s*${id}\\s*\\(`),
    new RegExp(`\\b(?:const|let|var)\\s+${id}\\s*=\\s*(?:async\\s*)?(?:function\\b|\\(|[A-Za-z_$][\\w$]*\\s*=>)`),
    new RegExp(`(?:^|[;\\s])${id}\\s*=\\s*(?:async\\s*)?(?:function\\b|\\()`, "m"),
  ].some((pattern) => pattern.test(source));
}

/** True when `name(` occurs anywhere other than in its own `function name(` declaration. */
export function callsFunction(source: string, name: string): boolean {
  const id = escapeRegExp(name);
  return new RegExp(`(?<!function\\s*\\*?\\s*)(?<![\\w$.])${id}\\s*\\(`).test(source);
}

/**
 * Splices JavaScript: solution + test, then a call to `demoTesting()`/`fullTesting()` for each that
 * the program defines but never calls (generated tests often define the entry point only).
 */
export function spliceJavaScript(solution: string, test: string): string {
  let program = concatSplice(solution, test);
  for (const entry of ENTRY_POINTS) {
    if (definesFunction(program, entry) && !callsFunction(program, entry)) {
      program = `${program}\n\n${entry}()\n`;
    }
  }
  return program;
}

export const javascriptRecipe = defineRecipe({
  language: "javascript",
  timeoutAllowanceMs: 0,
  failurePatterns: ["failed"],
  splice(solution, test) {
    const program = spliceJavaScript(solution, test);
    return { files: [{ path: "test.js", content: program }], program, syntaxError: null };
  },
  compile: null,
  run: { argv: ["node", "test.js"] },
  env: {},
  toolchain: { commands: ["node"], version: ["node", "--version"] },
  hello: {
    solution: "function add(a, b) {\n  return a + b;\n}\n",
    test: 'const assert = require("assert");\nconst demoTesting = () => {\n  assert.strictEqual(add(1, 2), 3);\n};\n',
  },
});

export const typescriptRecipe = defineRecipe({
  language: "typescript",
  timeoutAllowanceMs: 1_000,
  failurePatterns: ["failed", "AssertionError"],
  splice(solution, test) {
    const program = concatSplice(solution, test);
    return { files: [{ path: "test.ts", content: program }], program, syntaxError: null };
  },
  compile: null,
  // tsx transpiles without type checking, like the reference (`npx tsx test.ts`).
  run: { argv: ["tsx", "test.ts"] },
  env: {},
  toolchain: { commands: ["tsx", "node"], version: ["tsx", "--version"] },
  hello: {
    solution: "function add(a: number, b: number): number {\n  return a + b;\n}\n",
    test: 'const assert = require("assert");\nassert.strictEqual(add(1, 2), 3);\n',
  },
});
