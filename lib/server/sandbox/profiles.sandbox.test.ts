// Harness profiles in the real sandbox: a HumanEval-X-style Java record (`public class Main` with
// `main`) fails under AutoCodeBench's rules, as the issue observed, and passes under java-main; a
// wrong solution fails under it. JavaScript judged by exit code alone: a test that exits 0 passes
// even when it prints "failed" (which AutoCodeBench's rules read as a wrong answer), and one that
// throws fails; javascript-silent (HumanEval-X's rule) fails a run that printed anything. C++ that calls OpenSSL (HumanEval-X's CPP/162) does not link under AutoCodeBench's
// rules, which reads as an environment failure naming libcrypto, and passes under cpp-openssl.
import { describe, expect, it } from "vitest";

import { environmentFailure } from "@/lib/runs/environment-failure";
import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { createLocalBackend } from "./local";
import { runSteadily } from "./steady";

const backend = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();

async function whyNot(language: "java" | "javascript" | "cpp"): Promise<string | null> {
  if (status.problem) return status.problem;
  const toolchain = await backend.toolchain(language);
  return toolchain.isFound ? null : `toolchain not installed (${toolchain.missing.join(", ")})`;
}
const javaSkip = await whyNot("java");
const javascriptSkip = await whyNot("javascript");
const cppSkip = await whyNot("cpp");

const javaSolution = (factor: number) =>
  `import java.util.*;\nimport java.lang.*;\n\nclass Solution {\n    public int twice(int n) {\n        return n * ${factor};\n    }\n}\n`;
const javaTest =
  "public class Main {\n    public static void main(String[] args) {\n        Solution s = new Solution();\n" +
  "        List<Boolean> correct = Arrays.asList(s.twice(4) == 8, s.twice(0) == 0);\n" +
  "        if (correct.contains(false)) {\n            throw new AssertionError();\n        }\n    }\n}\n";

const run = (request: Parameters<typeof backend.run>[0]) => runSteadily({ timeoutMs: 30_000, ...request }, backend.run);

describe.skipIf(skipWithoutSandbox(javaSkip, status.problem ? undefined : "java"))(
  `java-main${javaSkip ? ` (skipped: ${javaSkip})` : ""}`,
  () => {
    it("a public class Main record fails under AutoCodeBench's rules", async () => {
      const result = await run({ language: "java", solution: javaSolution(2), test: javaTest });
      expect(result.outcome).toBe("COMPILATION_ERROR");
      expect(result.compileOutput).toContain("class Main is public");
    }, 300_000);

    it("passes under java-main, and a wrong solution fails", async () => {
      const passing = await run({ language: "java", solution: javaSolution(2), test: javaTest, profile: "java-main" });
      expect(passing.outcome, `${passing.stderr}\n${passing.compileOutput ?? ""}`).toBe("PASSED");
      const failing = await run({ language: "java", solution: javaSolution(3), test: javaTest, profile: "java-main" });
      expect(failing.outcome).toBe("RUNTIME_ERROR");
      expect(failing.stderr).toContain("AssertionError");
    }, 300_000);
  },
);

describe.skipIf(skipWithoutSandbox(javascriptSkip, status.problem ? undefined : "javascript"))(
  `javascript-exit-code${javascriptSkip ? ` (skipped: ${javascriptSkip})` : ""}`,
  () => {
    const solution = "const twice = (n) => n * 2;\n";
    const printsFailed = 'console.log("0 checks failed");\nif (twice(4) !== 8) process.exit(1);\n';

    it("judges by exit code alone", async () => {
      const byDefault = await run({ language: "javascript", solution, test: printsFailed });
      expect(byDefault.outcome).toBe("WRONG_ANSWER");
      const byExitCode = await run({
        language: "javascript",
        solution,
        test: printsFailed,
        profile: "javascript-exit-code",
      });
      expect(byExitCode.outcome).toBe("PASSED");
    }, 300_000);

    it("a test that throws fails", async () => {
      const result = await run({
        language: "javascript",
        solution,
        test: 'if (twice(4) !== 9) throw new Error("twice(4) is not 9");\n',
        profile: "javascript-exit-code",
      });
      expect(result.outcome).toBe("RUNTIME_ERROR");
    }, 300_000);

    it("javascript-silent passes a silent run and fails one whose console.assert printed (HumanEval-X's rule)", async () => {
      const asserts = (expected: number) => `console.assert(twice(4) === ${expected});\n`;
      const silent = await run({ language: "javascript", solution, test: asserts(8), profile: "javascript-silent" });
      expect(silent.outcome, silent.stderr).toBe("PASSED");
      const printed = await run({ language: "javascript", solution, test: asserts(9), profile: "javascript-silent" });
      expect(printed.stderr).toContain("Assertion failed");
      expect(printed.outcome).toBe("WRONG_ANSWER");
      // Judged by exit code alone, the same failed check would pass.
      const byExitCode = await run({
        language: "javascript",
        solution,
        test: asserts(9),
        profile: "javascript-exit-code",
      });
      expect(byExitCode.outcome).toBe("PASSED");
    }, 300_000);
  },
);

const goSkip = status.problem ?? ((await backend.toolchain("go")).isFound ? null : "toolchain not installed");

describe.skipIf(skipWithoutSandbox(goSkip, status.problem ? undefined : "go"))(
  `go-testify's splice and commands, with the standard library only${goSkip ? ` (skipped: ${goSkip})` : ""}`,
  () => {
    it("runs a HumanEval-X-shaped Go record (a prompt without a package clause) and fails a wrong one", async () => {
      const test =
        'package main\n\nimport "testing"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice(4) != 8 {\n\t\tt.Fatal("Twice(4) is not 8")\n\t}\n}\n';
      const solution = (factor: number) => `func Twice(n int) int {\n\treturn n * ${factor}\n}\n`;
      const passing = await run({ language: "go", solution: solution(2), test, profile: "go-testify" });
      expect(passing.outcome, passing.stderr + passing.stdout).toBe("PASSED");
      const failing = await run({ language: "go", solution: solution(3), test, profile: "go-testify" });
      expect(failing.outcome).toBe("RUNTIME_ERROR");
    }, 300_000);

    // HumanEval-X's Go harness writes one file (test_setup, the prompt without its import, the code, the
    // test) and imports the standard packages the code uses that nobody imported: Go/59's solution calls
    // math without importing it, and Go/151's test uses the math its prompt imported.
    it("runs solution and test as one file, importing the standard packages HumanEval-X's harness adds", async () => {
      const setup = 'package main\n\nimport (\n    "testing"\n)\n';
      const usesMathUnimported = "func Root(n float64) float64 {\n\treturn math.Sqrt(n)\n}\n";
      const rootTest = 'func TestRoot(t *testing.T) {\n\tif Root(16) != 4 {\n\t\tt.Fatal("no")\n\t}\n}\n';
      const first = await run({
        language: "go",
        solution: usesMathUnimported,
        test: setup + rootTest,
        profile: "go-testify",
      });
      expect(first.outcome, first.stdout + first.stderr).toBe("PASSED");
      const promptImportsMath =
        'import (\n    "math"\n)\n\nfunc Half(n float64) float64 {\n\treturn math.Floor(n / 2)\n}\n';
      const testUsesMath =
        'func TestHalf(t *testing.T) {\n\tif Half(9) != math.Floor(4.5) {\n\t\tt.Fatal("no")\n\t}\n}\n';
      const second = await run({
        language: "go",
        solution: promptImportsMath,
        test: setup + testUsesMath,
        profile: "go-testify",
      });
      expect(second.outcome, second.stdout + second.stderr).toBe("PASSED");
    }, 300_000);
  },
);

describe.skipIf(skipWithoutSandbox(cppSkip, status.problem ? undefined : "cpp"))(
  `cpp-openssl${cppSkip ? ` (skipped: ${cppSkip})` : ""}`,
  () => {
    const solution =
      "#include <openssl/md5.h>\n#include <string>\nstd::string md5_hex(std::string text) {\n" +
      "    unsigned char digest[MD5_DIGEST_LENGTH];\n" +
      "    MD5((const unsigned char*)text.c_str(), text.size(), digest);\n" +
      '    char out[33];\n    for (int i = 0; i < 16; i++) sprintf(out + 2 * i, "%02x", digest[i]);\n' +
      "    return std::string(out, 32);\n}\n";
    const test =
      '#include <cassert>\nint main() {\n    assert(md5_hex("Hello world") == "3e25960a79dbc69b674cd4ec67a72c62");\n}\n';

    it("an OpenSSL record does not link under AutoCodeBench's rules: an environment failure naming libcrypto", async () => {
      const result = await run({ language: "cpp", solution, test });
      expect(result.outcome).toBe("COMPILATION_ERROR");
      expect(environmentFailure(result)).toEqual({ kind: "library", missing: "crypto" });
    }, 300_000);

    it("passes under cpp-openssl", async () => {
      const result = await run({ language: "cpp", solution, test, profile: "cpp-openssl" });
      expect(result.outcome, `${result.stderr}\n${result.compileOutput ?? ""}`).toBe("PASSED");
    }, 300_000);
  },
);
