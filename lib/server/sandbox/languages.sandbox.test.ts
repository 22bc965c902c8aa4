import { describe, expect, it } from "vitest";

import { LANGUAGES, type Language } from "@/lib/records/languages";
import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { createLocalBackend } from "./local";
import { getRecipe } from "./recipes";
import { runSteadily } from "./steady";

// For each language: the recipe's passing hello program, and a test of the same solution that fails.
const FAILING_TESTS: Record<Language, string> = {
  python: "assert add(1, 2) == 4\n",
  cpp: "#include <cassert>\nint main() {\n    assert(add(1, 2) == 4);\n    return 0;\n}\n",
  java:
    "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\n" +
    "class AdderTest {\n    @Test\n    public void adds() {\n        assertEquals(4, new Adder().add(1, 2));\n    }\n}\n",
  javascript: 'const assert = require("assert");\nassert.strictEqual(add(1, 2), 4);\n',
  go: 'package main\n\nimport "testing"\n\nfunc TestDemo(t *testing.T) {\n\tif Add(1, 2) != 4 {\n\t\tt.Fatal("add is wrong")\n\t}\n}\n',
  shell: '[ "$(add 1 2)" = "4" ] || exit 1\n',
  csharp:
    'using System;\n\nclass Program {\n    static void RunTests() {\n        if (Adder.Add(1, 2) != 4) throw new Exception("add is wrong");\n    }\n}\n',
  dart: "void main() {\n  assert(add(1, 2) == 4);\n}\n",
  elixir: "4 = Hello.add(1, 2)\n",
  julia: "@assert add(1, 2) == 4\n",
  kotlin: 'check(add(1, 2) == 4) { "add is wrong" }\n',
  perl: 'die "add is wrong\\n" unless add(1, 2) == 4;\n',
  php: '<?php\nif (add(1, 2) !== 4) { throw new Exception("add is wrong"); }\n?>',
  racket: "#lang racket\n(require rackunit)\n(check-equal? (add 1 2) 4)\n",
  r: "stopifnot(add(1, 2) == 4)\n",
  ruby: 'raise "add is wrong" unless add(1, 2) == 4\n',
  rust: "#[test]\nfn test_add() {\n    assert_eq!(add(1, 2), 4);\n}\n",
  scala: "assert(add(1, 2) == 4)\n",
  swift: "assert(add(1, 2) == 4)\n",
  typescript: 'const assert = require("assert");\nassert.strictEqual(add(1, 2), 4);\n',
};

const backend = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();
const toolchains = await Promise.all(
  LANGUAGES.map(async (language) => [language, await backend.toolchain(language)] as const),
);

describe.each(toolchains)("%s in the local sandbox", (language, toolchain) => {
  const whyNot =
    status.problem ??
    (toolchain.isFound ? null : `toolchain not installed (${toolchain.missing.join(", ")}); route it to acb`);
  const recipe = getRecipe(language);
  const isSkipped = skipWithoutSandbox(whyNot, status.problem ? undefined : language);

  it.skipIf(isSkipped)(
    `${language}: a correct solution PASSES${whyNot ? ` (skipped: ${whyNot})` : ""}`,
    async () => {
      // Judged as batch verification judges: a time limit under load is run again alone, by CPU time
      // (the JVM script languages compile for many seconds on a loaded 2-core machine).
      const result = await runSteadily({ language, ...recipe.hello, timeoutMs: 30_000 }, backend.run);
      expect(result.outcome, `${result.stderr}\n${result.compileOutput ?? ""}`).toBe("PASSED");
      expect(result.backend).toBe("local");
    },
    300_000,
  );

  it.skipIf(isSkipped)(
    `${language}: a failing test does not pass${whyNot ? ` (skipped: ${whyNot})` : ""}`,
    async () => {
      const result = await runSteadily(
        { language, solution: recipe.hello.solution, test: FAILING_TESTS[language], timeoutMs: 30_000 },
        backend.run,
      );
      expect(["WRONG_ANSWER", "RUNTIME_ERROR"]).toContain(result.outcome);
    },
    300_000,
  );
});
