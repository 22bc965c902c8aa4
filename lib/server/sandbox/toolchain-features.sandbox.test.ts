import { describe, expect, it } from "vitest";

import { createLocalBackend } from "./local";
import { RUST_CRATES_SOLUTION, RUST_CRATES_TEST } from "./reference-cases";
import type { Outcome, SandboxLanguage } from "./types";

// Conformance-style cases of our own: generated records use what the reference image's toolchains
// (Go 1.24.5, current Rust with rand/regex/md5, JUnit 1.11 with org.json and Gson) accept, and ran in its environment. On Debian 12's defaults (Go 1.19, Rust 1.63) these fail to build
// and a correct record would be marked invalid.
type FeatureCase = {
  name: string;
  language: SandboxLanguage;
  solution: string;
  test: string;
  expected: Outcome;
  /** The run detail's first sentence, where the reference's behaviour is a quirk. */
  compileOutputStartsWith?: string;
};

const GO_SOLUTION = `package main

import (
	"maps"
	"slices"
)

// Clamp uses the min and max builtins (Go 1.21).
func Clamp(x, lo, hi int) int {
	return max(lo, min(x, hi))
}

// SortedKeys uses maps.Keys and slices.Sorted over iterators (Go 1.23).
func SortedKeys(m map[string]int) []string {
	return slices.Sorted(maps.Keys(m))
}

// Squares ranges over an int (Go 1.22).
func Squares(n int) []int {
	out := []int{}
	for i := range n {
		out = append(out, i*i)
	}
	return out
}
`;

const goTest = (expectedSquares: string) => `package main

import (
	"slices"
	"testing"
)

func TestFeatures(t *testing.T) {
	if Clamp(15, 0, 10) != 10 || Clamp(-3, 0, 10) != 0 {
		t.Fatal("clamp")
	}
	if !slices.Equal(SortedKeys(map[string]int{"b": 1, "a": 2}), []string{"a", "b"}) {
		t.Fatal("keys")
	}
	if !slices.Equal(Squares(4), []int{${expectedSquares}}) {
		t.Fatal("squares")
	}
	// Each iteration has its own variable (Go 1.22 loop semantics).
	var fns []func() int
	for i := 0; i < 3; i++ {
		fns = append(fns, func() int { return i })
	}
	if fns[0]() != 0 {
		t.Fatal("loop variable shared")
	}
}
`;

const RUST_SOLUTION = `/// Parses "key=value"; let-else (Rust 1.65) and is_some_and (1.70).
fn parse_pair(line: &str) -> Option<(String, i64)> {
    let Some((key, value)) = line.split_once('=') else {
        return None;
    };
    let Ok(number) = value.trim().parse::<i64>() else {
        return None;
    };
    Some((key.trim().to_string(), number))
}

fn pages(items: u32, per_page: u32) -> u32 {
    items.div_ceil(per_page) // Rust 1.73
}
`;

const rustTest = (expectedPages: number) => `#[test]
fn test_features() {
    assert_eq!(parse_pair("a = 3"), Some(("a".to_string(), 3)));
    assert_eq!(parse_pair("nope"), None);
    assert!(parse_pair("x=4").is_some_and(|(_, n)| n == 4));
    assert_eq!(pages(10, 3), ${expectedPages});
}
`;

// Go 1.24 (the reference's 1.24.5): strings.Lines and a generic type alias.
const GO_124_SOLUTION = `package main

import "strings"

// Set is a generic type alias (Go 1.24).
type Set[T comparable] = map[T]struct{}

func CountLines(text string) int {
	n := 0
	for range strings.Lines(text) {
		n++
	}
	return n
}

func Distinct(words []string) Set[string] {
	out := Set[string]{}
	for _, word := range words {
		out[word] = struct{}{}
	}
	return out
}
`;

const GO_124_TEST = `package main

import "testing"

func TestGo124(t *testing.T) {
	if CountLines("a\\nb\\nc\\n") != 3 {
		t.Fatal("lines")
	}
	if len(Distinct([]string{"x", "y", "x"})) != 2 {
		t.Fatal("distinct")
	}
}
`;

// The prebuilt crates are shared by every Rust job: a job must not be able to change them.
const RUST_CACHE_WRITE_TEST = `#[test]
fn cannot_write_the_shared_crates() {
    let dir = "/opt/verity/rust-crates/deps";
    assert!(std::path::Path::new(dir).is_dir());
    assert!(std::fs::write(format!("{dir}/planted.rlib"), b"x").is_err());
    let victim = std::fs::read_dir(dir).unwrap().next().unwrap().unwrap().path();
    assert!(std::fs::OpenOptions::new().append(true).open(&victim).is_err());
    assert!(std::fs::remove_file(&victim).is_err());
}
`;

const JAVA_SOLUTION = "public class Adder {\n    public int add(int a, int b) { return a + b; }\n}\n";
const javaTest = (header: string) =>
  "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\n" +
  `${header} {\n    @Test\n    public void adds() {\n        assertEquals(3, new Adder().add(1, 2));\n    }\n}\n`;

// The reference image runs at UTC+8: local-time code sees 08:00 at the epoch (racket-25958).
const TIME_ZONE_SOLUTION = "import time\n\ndef epoch_hour():\n    return time.localtime(0).tm_hour\n";

const CASES: FeatureCase[] = [
  {
    name: "local time is the reference's UTC+8",
    language: "python",
    solution: TIME_ZONE_SOLUTION,
    test: "assert epoch_hour() == 8, epoch_hour()\n",
    expected: "PASSED",
  },
  {
    name: "local time is the reference's UTC+8",
    language: "racket",
    solution: "#lang racket\n(define (epoch-hour) (date-hour (seconds->date 0)))\n",
    test: '(unless (= (epoch-hour) 8) (error \'tz "hour ~a" (epoch-hour)))\n',
    expected: "PASSED",
  },
  {
    name: "Go 1.21–1.23 features pass",
    language: "go",
    solution: GO_SOLUTION,
    test: goTest("0, 1, 4, 9"),
    expected: "PASSED",
  },
  {
    name: "a wrong Go answer is RUNTIME_ERROR",
    language: "go",
    solution: GO_SOLUTION,
    test: goTest("0, 1, 4, 8"),
    expected: "RUNTIME_ERROR",
  },
  {
    name: "Go 1.24 features (strings.Lines, a generic type alias) pass",
    language: "go",
    solution: GO_124_SOLUTION,
    test: GO_124_TEST,
    expected: "PASSED",
  },
  {
    name: "a record using regex, rand and md5 passes",
    language: "rust",
    solution: RUST_CRATES_SOLUTION,
    test: RUST_CRATES_TEST,
    expected: "PASSED",
  },
  {
    name: "a job cannot write into the shared crate cache",
    language: "rust",
    solution: "",
    test: RUST_CACHE_WRITE_TEST,
    expected: "PASSED",
  },
  {
    name: "a public JUnit test class does not compile, as in the reference",
    language: "java",
    solution: JAVA_SOLUTION,
    test: javaTest("public class AdderTest"),
    expected: "COMPILATION_ERROR",
    compileOutputStartsWith: "The reference sandbox fails this record: its test class is public.",
  },
  {
    name: "a package-private JUnit test class passes",
    language: "java",
    solution: JAVA_SOLUTION,
    test: javaTest("class AdderTest"),
    expected: "PASSED",
  },
  {
    name: "a class named MyTestCase is not run (JUnit's default class filter): no tests found",
    language: "java",
    solution: JAVA_SOLUTION,
    test: javaTest("class MyTestCase"),
    expected: "RUNTIME_ERROR",
  },
  {
    name: "org.json and Gson are on the class path, as in the reference",
    language: "java",
    solution:
      "import org.json.JSONObject;\nimport com.google.gson.Gson;\n\npublic class Codec {\n" +
      '    static int fromJson(String s) { return new JSONObject(s).getInt("n"); }\n' +
      "    static String toJson(int[] xs) { return new Gson().toJson(xs); }\n}\n",
    test:
      "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\n" +
      'class CodecTest {\n    @Test\n    void codec() {\n        assertEquals(4, Codec.fromJson("{\\"n\\": 4}"));\n' +
      '        assertEquals("[1,2]", Codec.toJson(new int[] {1, 2}));\n    }\n}\n',
    expected: "PASSED",
  },
  {
    name: "current Rust features pass",
    language: "rust",
    solution: RUST_SOLUTION,
    test: rustTest(4),
    expected: "PASSED",
  },
  {
    name: "a wrong Rust answer is RUNTIME_ERROR",
    language: "rust",
    solution: RUST_SOLUTION,
    test: rustTest(3),
    expected: "RUNTIME_ERROR",
  },
];

const backend = createLocalBackend({ isUnsafe: false, concurrency: 1, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();
const languages = [...new Set(CASES.map((item) => item.language))];
const found = Object.fromEntries(
  await Promise.all(languages.map(async (language) => [language, await backend.toolchain(language)] as const)),
) as Record<SandboxLanguage, { isFound: boolean; missing: string[] }>;

describe("toolchains and environment like the reference's", () => {
  it.each(CASES)(
    "$language: $name",
    async ({ language, solution, test, expected, compileOutputStartsWith }) => {
      // Needs `npm run sandbox:install`; say so rather than skip in silence.
      expect(status.problem, "sandbox isolation").toBeNull();
      expect(found[language].missing, `${language} toolchain`).toEqual([]);
      const result = await backend.run({ language, solution, test, timeoutMs: 60_000 });
      expect(result.outcome, `${result.stdout}\n${result.stderr}\n${result.compileOutput ?? ""}`).toBe(expected);
      if (compileOutputStartsWith) expect(result.compileOutput?.startsWith(compileOutputStartsWith)).toBe(true);
    },
    120_000,
  );
});
