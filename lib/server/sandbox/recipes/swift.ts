import "server-only";

import { simpleRecipe } from "./simple";

// Names that need Foundation on Linux. The reference matches plain substrings, so e.g. "exp" also
// fires on "expected": importing Foundation is harmless, so erring towards it matches the reference.
const FOUNDATION_HINTS = ["pow", "sin", "exp", "cos", "sqrt", "NSDictionary", "NSDecimalSquareRoot"];

/** Splices Swift: `import Foundation` prepended when the solution uses math/Foundation names. */
export function spliceSwift(solution: string, test: string): string {
  const needsFoundation = FOUNDATION_HINTS.some((hint) => solution.includes(hint));
  const hasFoundation = /^\s*import\s+Foundation\b/m.test(solution);
  const head = needsFoundation && !hasFoundation ? `import Foundation\n\n${solution}` : solution;
  return `${head}\n${test}`;
}

export const swiftRecipe = simpleRecipe({
  language: "swift",
  file: "test.swift",
  interpreter: ["swift"],
  splice: spliceSwift,
  version: ["swift", "--version"],
  hello: {
    solution: "func add(_ a: Int, _ b: Int) -> Int { a + b }\n",
    test: "assert(add(1, 2) == 3)\n",
  },
});
