import "server-only";

import type { HarnessProfile } from "@/lib/records/harness";
import { TOOLCHAINS_DIR } from "@/lib/server/sandbox/isolation";
import type { SandboxLanguage } from "@/lib/server/sandbox/types";

import { defineRecipe, type RecipeSpec } from "./classify";
import { goRecipe, spliceGo } from "./go";
import { cppRecipe } from "./cpp";
import { CLASSPATH } from "./java";
import { javascriptRecipe, typescriptRecipe } from "./javascript";
import { RECIPES } from "./index";
import { concatSplice } from "./splice-helpers";
import type { Recipe } from "./types";

/**
 * A harness profile: the parts of a language's recipe a benchmark's own harness does differently
 * (splice, commands, classifier). Everything it leaves out (toolchain, allowance, environment,
 * doctor's hello) is the recipe's; the classifier is always `classifyRun` with the profile's rules.
 */
type ProfileSpec = Pick<RecipeSpec, "splice" | "compile" | "run" | "failurePatterns"> &
  Partial<Pick<RecipeSpec, "env" | "checkPassedRun">>;

const JAVA_IMPORT_OR_PACKAGE = /^\s*(import|package)\s[^;]*;\s*$/;

/**
 * Java as `javac Main.java && java Main` runs it: solution and test in one Main.java (the test holds
 * `public class Main` with `main`), their import lines on top, package lines dropped.
 */
function spliceJavaMain(solution: string, test: string): string {
  const lines = `${solution}\n${test}`.split("\n");
  const imports = [...new Set(lines.filter((line) => /^\s*import\s/.test(line)).map((line) => line.trim()))];
  const body = lines.filter((line) => !JAVA_IMPORT_OR_PACKAGE.test(line)).join("\n");
  return `${imports.join("\n")}\n${body}\n`;
}

/** Solution then test in one file, nothing added (no `demoTesting()` call as the default recipes add). */
function concatInto(path: string): RecipeSpec["splice"] {
  return (solution, test) => {
    const program = concatSplice(solution, test);
    return { files: [{ path, content: program }], program, syntaxError: null };
  };
}

/** A read-only Go module cache (a proxy layout under cache/download) the install may fill; see docs/sandbox.md. */
const GO_MODULE_CACHE = `${TOOLCHAINS_DIR}/go-modcache`;

/** The standard packages HumanEval-X's Go harness imports when the code uses them unimported (its IMPORT_HELPER). */
const HUMANEVAL_X_GO_IMPORTS = `import (\n${[
  "math",
  "strings",
  "fmt",
  "strconv",
  "time",
  "bytes",
  "regexp",
  "sort",
  "math/rand",
  "crypto/md5",
]
  .map((path) => `\t"${path}"`)
  .join("\n")}\n)\n`;

const PROFILES: Readonly<Record<HarnessProfile, ProfileSpec>> = {
  /** HumanEval-X, MultiPL-E and MBXP Java: a `public class Main` whose main throws on a failed check. */
  "java-main": {
    splice(solution, test) {
      const program = spliceJavaMain(solution, test);
      return { files: [{ path: "Main.java", content: program }], program, syntaxError: null };
    },
    compile: { argv: ["javac", "-encoding", "UTF-8", "Main.java"] },
    // -ea: a test's `assert` statements check, as `throw new AssertionError()` does.
    run: { argv: ["java", "-ea", "-cp", CLASSPATH, "Main"] },
    // A main that catches its own failed check and prints it still fails.
    failurePatterns: ["AssertionError", "Assertion failed"],
  },
  /** A JavaScript test that fails by exiting non-zero (a thrown error, process.exit(1)); nothing is read from its output. */
  "javascript-exit-code": {
    splice: concatInto("test.js"),
    compile: null,
    run: javascriptRecipe.run,
    failurePatterns: [],
  },
  /**
   * HumanEval-X JavaScript: its `console.assert` checks only print, so its harness fails a run that
   * printed anything at all (stdout or stderr) and passes one that exited 0 silently.
   */
  "javascript-silent": {
    splice: concatInto("test.js"),
    compile: null,
    run: javascriptRecipe.run,
    failurePatterns: [],
    checkPassedRun: (run) => (run.stdout !== "" || run.stderr !== "" ? "WRONG_ANSWER" : "PASSED"),
  },
  /** The same for TypeScript, through tsx as the recipe runs it. */
  "typescript-exit-code": {
    splice: concatInto("test.ts"),
    compile: null,
    run: typescriptRecipe.run,
    failurePatterns: [],
  },
  /**
   * HumanEval-X Go: solution and test in one test file of package main, as its harness writes them,
   * with the standard packages that harness imports for code that uses them without importing them;
   * the test imports a third-party assertion module (testify) from the dataset's environment (or
   * GO_MODULE_CACHE): runs never reach the network.
   */
  "go-testify": {
    splice(solution, test) {
      // spliceGo merges both parts' imports and drops the unused ones, so offering every helper
      // package keeps exactly those the code calls.
      const program = spliceGo(`${HUMANEVAL_X_GO_IMPORTS}\n${solution}`, test);
      return { files: [{ path: "main_test.go", content: program }], program, syntaxError: null };
    },
    compile: null,
    // The recipe's own go test (go.mod for the job's Go, the build-cache seed); -mod=mod lets it take modules from GOPROXY.
    run: goRecipe.run,
    failurePatterns: [],
    env: { ...goRecipe.env, GOPROXY: `file://${GO_MODULE_CACHE}/cache/download`, GOFLAGS: "-mod=mod" },
  },
  /** HumanEval-X C++: AutoCodeBench's splice, linked with OpenSSL as that harness links every program. */
  "cpp-openssl": {
    splice: cppRecipe.splice,
    compile: { argv: ["g++", "-o", "test", "test.cpp", "-lssl", "-lcrypto"] },
    run: cppRecipe.run,
    failurePatterns: [],
  },
};

const PROFILE_RECIPES = Object.fromEntries(
  Object.entries(PROFILES).map(([name, profile]) => {
    const language = name.split("-")[0] as SandboxLanguage;
    const base = RECIPES[language];
    return [name, defineRecipe({ ...base, checkPassedRun: undefined, ...profile, env: profile.env ?? base.env })];
  }),
) as Record<HarnessProfile, Recipe>;

/**
 * The recipe a run uses: the language's (AutoCodeBench's rules) unless the run names a profile of
 * that language. A profile of another language is refused by the run request's validation.
 */
export function recipeFor(language: SandboxLanguage, profile?: HarnessProfile | null): Recipe {
  return profile ? PROFILE_RECIPES[profile] : RECIPES[language];
}
