import { describe, expect, it } from "vitest";

import type { SandboxLanguage } from "@/lib/server/sandbox/types";

import { classifyRun, defineRecipe, hasFailureText, REFERENCE_OUTPUT_WINDOW_BYTES } from "./classify";
import { RECIPES } from "./index";
import { rubyRecipe } from "./simple";
import type { StepOutcome } from "./types";

const ok: StepOutcome = { exitCode: 0, timedOut: false, stdout: "", stderr: "" };
const none = { failurePatterns: [] };
const failed = { failurePatterns: ["failed"] };

function runOf(run: Partial<StepOutcome>) {
  return { syntaxError: false, compile: null, run: { ...ok, ...run } };
}

describe("classifyRun", () => {
  it("refuses a syntax error before anything else", () => {
    expect(classifyRun({ syntaxError: true, compile: null, run: ok }, none)).toBe("SYNTAX_ERROR");
  });

  it("reports a compile timeout as TIME_LIMIT_EXCEEDED and a failed compile as COMPILATION_ERROR", () => {
    const timedOut = { ...ok, exitCode: null, timedOut: true };
    expect(classifyRun({ syntaxError: false, compile: timedOut, run: null }, none)).toBe("TIME_LIMIT_EXCEEDED");
    expect(classifyRun({ syntaxError: false, compile: { ...ok, exitCode: 1 }, run: null }, none)).toBe(
      "COMPILATION_ERROR",
    );
  });

  it("checks timeout, then exit code, then failure text (the reference's order)", () => {
    expect(classifyRun(runOf({ exitCode: null, timedOut: true, stdout: "failed" }), failed)).toBe(
      "TIME_LIMIT_EXCEEDED",
    );
    // A failing assertion that also exits non-zero is RUNTIME_ERROR, whatever it printed.
    expect(classifyRun(runOf({ exitCode: 1, stderr: "test failed" }), failed)).toBe("RUNTIME_ERROR");
    expect(classifyRun(runOf({ stdout: "1 test failed" }), failed)).toBe("WRONG_ANSWER");
    expect(classifyRun(runOf({ exitCode: 2 }), failed)).toBe("RUNTIME_ERROR");
    expect(classifyRun(runOf({}), failed)).toBe("PASSED");
  });

  it("treats a signal death (null exit code) as RUNTIME_ERROR and a missing run as INTERNAL_ERROR", () => {
    expect(classifyRun(runOf({ exitCode: null }), none)).toBe("RUNTIME_ERROR");
    expect(classifyRun({ syntaxError: false, compile: ok, run: null }, none)).toBe("INTERNAL_ERROR");
  });

  it("asks the recipe's second look only about a run that would otherwise pass", () => {
    const rules = { failurePatterns: ["failed"], checkPassedRun: () => "RUNTIME_ERROR" as const };
    expect(classifyRun(runOf({}), rules)).toBe("RUNTIME_ERROR");
    expect(classifyRun(runOf({ stdout: "failed" }), rules)).toBe("WRONG_ANSWER");
    expect(classifyRun(runOf({ exitCode: null, timedOut: true }), rules)).toBe("TIME_LIMIT_EXCEEDED");
  });
});

describe("hasFailureText", () => {
  it("looks at stdout and stderr together, case-sensitively", () => {
    expect(hasFailureText("", "AssertionError: x", ["AssertionError"])).toBe(true);
    expect(hasFailureText("fai", "led", ["failed"])).toBe(true);
    expect(hasFailureText("FAILED", "", ["failed"])).toBe(false);
  });

  it("only sees the head of each stream, like the reference (2 KiB each)", () => {
    const filler = "x".repeat(REFERENCE_OUTPUT_WINDOW_BYTES);
    expect(hasFailureText(`${filler}failed`, "", ["failed"])).toBe(false);
    expect(hasFailureText("", `${filler}failed`, ["failed"])).toBe(false);
    expect(hasFailureText(`${filler.slice(6)}failed`, "", ["failed"])).toBe(true);
    expect(hasFailureText(filler, "failed", ["failed"])).toBe(true);
  });
});

describe("defineRecipe", () => {
  it("classifies with the recipe's own failure patterns", () => {
    const recipe = defineRecipe({ ...rubyRecipe, failurePatterns: ["boom"] });
    expect(recipe.classify(runOf({ stdout: "boom" }))).toBe("WRONG_ANSWER");
    expect(recipe.classify(runOf({ stdout: "failed" }))).toBe("PASSED");
  });
});

// The reference's `error_check` per language (MultiLanguageSandbox code_config.yaml); a language it
// does not list has none, and only the exit code decides.
const REFERENCE_ERROR_CHECK: Partial<Record<SandboxLanguage, readonly string[]>> = {
  javascript: ["failed"],
  typescript: ["failed", "AssertionError"],
  php: ["assert()", "failed"],
  racket: ["FAILURE", "ERROR"],
  csharp: ["Assertion failed"],
};

describe("failure patterns per language", () => {
  it.each(Object.values(RECIPES).map((recipe) => [recipe.language, recipe] as const))(
    "%s uses the reference's error_check list",
    (language, recipe) => {
      expect(recipe.failurePatterns).toEqual(REFERENCE_ERROR_CHECK[language] ?? []);
    },
  );

  it("a crashing assertion is RUNTIME_ERROR in every language (conformance: perl, php, typescript)", () => {
    const crashes: Array<[SandboxLanguage, Partial<StepOutcome>]> = [
      ["perl", { exitCode: 2, stderr: "#   Failed test 'Test case 1'\n# Looks like you failed 2 tests of 4.\n" }],
      [
        "php",
        {
          exitCode: 255,
          stderr: "PHP Fatal error:  Uncaught AssertionError: assert($a === 1)\n#0 test.php(50): assert()\n",
        },
      ],
      [
        "typescript",
        { exitCode: 1, stderr: "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n3 !== 1\n" },
      ],
      ["python", { exitCode: 1, stderr: "Traceback (most recent call last):\nAssertionError\n" }],
      ["javascript", { exitCode: 1, stderr: "AssertionError [ERR_ASSERTION]: 1 == 2 failed\n" }],
      ["racket", { exitCode: 1, stderr: "--------------------\nFAILURE\nname: check-equal?\n" }],
    ];
    for (const [language, run] of crashes)
      expect(RECIPES[language].classify(runOf(run)), language).toBe("RUNTIME_ERROR");
  });
});
