import "server-only";

import { defineRecipe } from "./classify";

/**
 * Splices C++ like the reference: the solution up to its first `int main` (the test brings its own
 * `main`), prefixed with `#include <iostream>` and `using namespace std;`, then the test.
 */
export function spliceCpp(solution: string, test: string): string {
  const model = solution.trim().split("int main")[0];
  return `#include <iostream>\nusing namespace std;\n${model}\n${test}`;
}

export const cppRecipe = defineRecipe({
  language: "cpp",
  timeoutAllowanceMs: 3_000,
  failurePatterns: [],
  splice(solution, test) {
    const program = spliceCpp(solution, test);
    return { files: [{ path: "test.cpp", content: program }], program, syntaxError: null };
  },
  compile: { argv: ["g++", "-o", "test", "test.cpp"] },
  run: { argv: ["./test"] },
  env: {},
  toolchain: { commands: ["g++"], version: ["g++", "--version"] },
  hello: {
    solution: "int add(int a, int b) { return a + b; }\nint main() { return 0; }\n",
    test: "#include <cassert>\nint main() {\n    assert(add(1, 2) == 3);\n    return 0;\n}\n",
  },
});
