import { describe, expect, it } from "vitest";

import { LANGUAGES, type Language } from "@/lib/records/languages";

import { generateMutants, isFullRunMoot, MAX_MUTANTS, mutantStatus, summarizeMutants } from "./index";
import { mutationCandidates } from "./operators";
import { familyOf, tokenize } from "./tokenize";

/** The code of a source with its strings and comments blanked, to check where mutations land. */
function changedTexts(source: string, language: Language): string[] {
  return mutationCandidates(source, language).map((candidate) => `${candidate.original}→${candidate.replacement}`);
}

/** Every mutation lands on code: the changed stretch holds no part of a string or a comment token. */
function expectOnlyCode(source: string, language: Language) {
  const protectedSpans = tokenize(source, language)
    .filter((token) => token.kind === "string" || token.kind === "comment")
    .map((token) => [token.start, token.start + token.text.length]);
  const candidates = mutationCandidates(source, language);
  expect(candidates.length).toBeGreaterThan(0);
  for (const candidate of candidates)
    for (const [start, end] of protectedSpans) expect(candidate.end <= start || candidate.start >= end).toBe(true);
}

describe("the tokenizer", () => {
  it("gives the source back for every language", () => {
    const source = "x = \"a < b\" // c\n# d\n; e\n/* f */ 'g' 12 <= 3\n";
    for (const language of LANGUAGES)
      expect(
        tokenize(source, language)
          .map((token) => token.text)
          .join(""),
      ).toBe(source);
  });

  it("puts each language in its family", () => {
    expect(familyOf("cpp")).toBe("c-like");
    expect(familyOf("kotlin")).toBe("c-like");
    expect(familyOf("php")).toBe("c-like");
    expect(familyOf("python")).toBe("hash");
    expect(familyOf("shell")).toBe("hash");
    expect(familyOf("racket")).toBe("lisp");
  });
});

describe("C-like family", () => {
  const cpp = [
    "#include <vector>",
    "// a < b in a comment",
    "int count(const std::vector<int>& xs, int limit) {",
    '    const char* s = "x <= 3 && y == 4";',
    "    char c = '<';",
    "    int n = 0;",
    "    for (int i = 0; i < xs.size(); i++) {",
    "        if (xs[i] >= limit && xs[i] != 7) n = n + 1; /* n - 1 */",
    "    }",
    "    return n * 2;",
    "}",
  ].join("\n");

  it("swaps relational, equality, arithmetic and logical operators and bumps integers, in code only", () => {
    const changes = changedTexts(cpp, "cpp");
    expect(changes).toEqual(
      expect.arrayContaining(["<→<=", ">=→>", "!=→==", "&&→||", "+→-", "*→/", "7→8", "7→6", "0→1", "2→3"]),
    );
    // The generic's brackets, the include and the string's and comment's operators are left alone.
    expect(changes).not.toContain("<=→<");
    expect(changes.filter((change) => change.startsWith("<→"))).toHaveLength(1);
    expectOnlyCode(cpp, "cpp");
  });

  it("returns a constant where the return statement is one simple line", () => {
    const mutant = mutationCandidates(cpp, "cpp").find((candidate) => candidate.operator === "return");
    expect(mutant).toMatchObject({ original: "n * 2", replacement: "0", line: 10 });
  });

  it("reads JavaScript template strings, single quotes and regex-free code", () => {
    const js = "function f(a, b) {\n  const s = `a < ${b}` + 'x > y';\n  return a > b ? true : false;\n}\n";
    expect(changedTexts(js, "javascript")).toEqual([
      "+→-",
      "a > b ? true : false→false",
      ">→>=",
      "true→false",
      "false→true",
    ]);
    expectOnlyCode(js, "javascript");
  });

  it("reads Rust lifetimes and raw strings, Go raw strings and Java text blocks as what they are", () => {
    const rust = "fn f<'a>(s: &'a str) -> usize {\n    let r = r#\"x < 1\"#;\n    if s.len() > 3 { 1 } else { 0 }\n}\n";
    expect(changedTexts(rust, "rust")).toEqual([">→>=", "3→4", "3→2", "1→2", "1→0", "0→1"]);
    expectOnlyCode(rust, "rust");
    const go = "func f(a int) bool {\n\ts := `a == 1`\n\treturn a == 2\n}\n";
    expect(changedTexts(go, "go")).toEqual(["a == 2→false", "==→!=", "2→3", "2→1"]);
    const java = 'class A {\n  String t = """\n  a < b\n  """;\n  boolean f(int x) { return x < 5; }\n}\n';
    expect(changedTexts(java, "java")).toEqual(["x < 5→false", "<→<=", "5→6", "5→4"]);
  });

  it("reads PHP's # comments and Kotlin's string templates", () => {
    const php = "<?php\nfunction f($a) {\n  # $a < 1\n  return $a + 1; // $a - 1\n}\n";
    expect(changedTexts(php, "php")).toEqual(["$a + 1→null", "+→-", "1→2", "1→0"]);
    const kotlin = 'fun f(a: Int): String = if (a >= 10) "${a - 1}" else "no"\n';
    expect(changedTexts(kotlin, "kotlin")).toEqual([">=→>", "10→11", "10→9"]);
  });
});

describe("# comment family", () => {
  it("mutates Python code and leaves strings, f-strings, docstrings and comments alone", () => {
    const python = [
      "def clamp(x, low=0, high=10):",
      '    """Return x if low <= x <= high."""',
      "    # x < low means too small",
      "    if x < low or x == -1:",
      "        return low",
      "    label = f'{x > high}'",
      "    return min(x, high) * 1",
    ].join("\n");
    const changes = changedTexts(python, "python");
    expect(changes).toEqual(
      expect.arrayContaining(["0→1", "10→11", "10→9", "<→<=", "or→and", "==→!=", "*→/", "min(x, high) * 1→None"]),
    );
    // "return low" returns a name: a single token is not mutated by the return operator.
    expect(changes).not.toContain("low→None");
    expectOnlyCode(python, "python");
  });

  it("reads shell test operators, $# and ${#s}, and never mutates a redirection", () => {
    const shell = 'count() {\n  n=$#\n  len=${#1}\n  if [ "$n" -lt 3 ]; then echo "a < b" > /dev/null; fi # -gt\n}\n';
    // ${#1} is the length of $1: its 1 is code (the argument's number), its # is not a comment.
    expect(changedTexts(shell, "shell")).toEqual(["1→2", "1→0", "lt→le", "3→4", "3→2"]);
    expectOnlyCode(shell, "shell");
  });

  it("mutates Ruby, Elixir, Julia, R and Perl in code only", () => {
    expect(changedTexts("def f(a)\n  # a > 1\n  a > 1 && true\nend\n", "ruby")).toEqual([
      ">→>=",
      "1→2",
      "1→0",
      "&&→||",
      "true→false",
    ]);
    expect(changedTexts('def f(a), do: a * 2 <> "a * 2"\n', "elixir")).toEqual(["*→/", "2→3", "2→1"]);
    expect(changedTexts("#= a < b =#\nf(x) = x >= 2\n", "julia")).toEqual([">=→>", "2→3", "2→1"]);
    expect(changedTexts("f <- function(x) x > 2 # x < 2\n", "r")).toEqual([">→>=", "2→3", "2→1"]);
    expect(changedTexts('my $n = $#a; # $n < 1\nprint "x" if $n >= 1;\n', "perl")).toEqual([">=→>", "1→2", "1→0"]);
  });
});

describe("Lisp family", () => {
  it("mutates Racket's operator symbols, booleans and integers, never strings, chars or comments", () => {
    const racket = [
      "#lang racket",
      "; (< a b) in a comment",
      "#| (> a b) |#",
      "(define (f a b)",
      '  (if (and (< a b) (string=? "<" "x")) #t (+ a 1)))',
      "(define c #\\<)",
    ].join("\n");
    expect(changedTexts(racket, "racket")).toEqual(["and→or", "<→<=", "#t→#f", "+→-", "1→2", "1→0"]);
    expectOnlyCode(racket, "racket");
  });
});

describe("choosing mutants", () => {
  const source = Array.from(
    { length: 30 },
    (_, index) => `    if x < ${index + 2} and y == ${index + 3}: x = x + 1`,
  ).join("\n");

  it("is deterministic: the same solution gives the same mutants", () => {
    expect(generateMutants(source, "python")).toEqual(generateMutants(source, "python"));
    expect(generateMutants(source, "python", 12).map((mutant) => mutant.source)).toEqual(
      generateMutants(source, "python", 12).map((mutant) => mutant.source),
    );
  });

  it("gives up to N (default 8), spread over the operators, each one change away from the solution", () => {
    const mutants = generateMutants(source, "python");
    expect(mutants).toHaveLength(8);
    expect(new Set(mutants.map((mutant) => mutant.operator))).toEqual(
      new Set(["relational", "equality", "arithmetic", "literal", "logical"]),
    );
    expect(new Set(mutants.map((mutant) => mutant.source)).size).toBe(8);
    for (const mutant of mutants) {
      expect(mutant.source).not.toBe(source);
      expect(mutant.before).toBe(source.split("\n")[mutant.line - 1].trim());
      expect(mutant.after).toBe(mutant.source.split("\n")[mutant.line - 1].trim());
    }
    expect(generateMutants(source, "python", 3)).toHaveLength(3);
    expect(generateMutants(source, "python", 1000)).toHaveLength(MAX_MUTANTS);
    expect(generateMutants("print('hi')\n", "python")).toEqual([]);
  });
});

describe("the mutation score", () => {
  it("counts killed ÷ viable overall and per test; builds that fail or time out are stillborn", () => {
    const summary = summarizeMutants([
      { demoOutcome: "WRONG_ANSWER", fullOutcome: null },
      { demoOutcome: "PASSED", fullOutcome: "RUNTIME_ERROR" },
      { demoOutcome: "PASSED", fullOutcome: "PASSED" },
      { demoOutcome: "COMPILATION_ERROR", fullOutcome: null },
      { demoOutcome: "PASSED", fullOutcome: "TIME_LIMIT_EXCEEDED" },
    ]);
    expect(summary).toEqual({
      generated: 5,
      viable: 3,
      killed: 2,
      demoKilled: 1,
      fullKilled: 1,
      stillborn: 2,
      inconclusive: 0,
      score: 2 / 3,
    });
    expect(summarizeMutants([{ demoOutcome: "SYNTAX_ERROR", fullOutcome: null }]).score).toBeNull();
  });

  it("keeps a mutant whose time-out a busy machine could explain apart: neither viable nor stillborn", () => {
    const summary = summarizeMutants([
      { demoOutcome: "WRONG_ANSWER", fullOutcome: null },
      { demoOutcome: "PASSED", fullOutcome: "INCONCLUSIVE" },
      { demoOutcome: "INCONCLUSIVE", fullOutcome: null },
      { demoOutcome: "PASSED", fullOutcome: "PASSED" },
    ]);
    expect(summary).toEqual({
      generated: 4,
      viable: 2,
      killed: 1,
      demoKilled: 1,
      fullKilled: 0,
      stillborn: 0,
      inconclusive: 2,
      score: 1 / 2,
    });
    expect(mutantStatus("INCONCLUSIVE", null)).toBe("INCONCLUSIVE");
    expect(mutantStatus("PASSED", "INCONCLUSIVE")).toBe("INCONCLUSIVE");
    expect(mutantStatus("WRONG_ANSWER", "INCONCLUSIVE")).toBe("KILLED");
    expect(isFullRunMoot("INCONCLUSIVE")).toBe(true);
    expect(isFullRunMoot("PASSED")).toBe(false);
  });

  it("stops a mutant at its first failing test, demo first: only a mutant the demo let through runs the full test", () => {
    expect(isFullRunMoot("WRONG_ANSWER")).toBe(true);
    expect(isFullRunMoot("RUNTIME_ERROR")).toBe(true);
    expect(isFullRunMoot("COMPILATION_ERROR")).toBe(true);
    expect(mutantStatus("RUNTIME_ERROR", null)).toBe("KILLED");
    expect(mutantStatus("PASSED", "WRONG_ANSWER")).toBe("KILLED");
    expect(mutantStatus("PASSED", "PASSED")).toBe("SURVIVED");
  });
});

describe("a Scala function's result", () => {
  it("is returned as a constant where the function is declared to return a number or a Boolean and its body is one line", () => {
    const source =
      "def sumOfSquares(xs: List[Int]): Long =\n  xs.map(x => x.toLong * x.toLong).sum\n\n" +
      "def isEven(n: Int): Boolean = n % 2 == 0\n" +
      "def name(n: Int): String =\n  n.toString\n" +
      "def block(n: Int): Int = {\n  n + 1\n}\n" +
      "def chained(xs: List[Int]): Int =\n  xs\n    .sum\n";
    const results = generateMutants(source, "scala", 50).filter((mutant) => mutant.operator === "return");
    expect(results.map((mutant) => [mutant.original, mutant.replacement])).toEqual([
      ["xs.map(x => x.toLong * x.toLong).sum", "0"],
      ["n % 2 == 0", "false"],
    ]);
  });
});
