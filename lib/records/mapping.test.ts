import { describe, expect, it } from "vitest";
import { ZodError } from "zod";

import { applyFieldMapping, BUILTIN_MAPPINGS, parseFieldMapping, resolveFieldMapping } from "./mapping";
import { validateRecord } from "./validate";

const humanEvalRecord = {
  task_id: "Sample/3",
  prompt: 'def twice(n: int) -> int:\n    """Return n doubled.\n    >>> twice(4)\n    8\n    """\n',
  canonical_solution: "    return n * 2\n",
  test: "def check(candidate):\n    assert candidate(4) == 8\n    assert candidate(-1) == -2\n",
  entry_point: "twice",
};

function mapped(name: string, record: unknown): Record<string, unknown> {
  const result = applyFieldMapping(resolveFieldMapping(name), record);
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

function mappingMessage(name: string, record: unknown): string {
  const result = applyFieldMapping(resolveFieldMapping(name), record);
  if (result.ok) throw new Error("expected the record to be refused");
  return result.message;
}

function zodPaths(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ZodError) return error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw error;
  }
  throw new Error("expected a ZodError");
}

describe("the humaneval mapping", () => {
  it("puts the prompt before the solution and calls check on the entry point", () => {
    const value = mapped("humaneval", humanEvalRecord);
    expect(value.canonical_solution).toBe(humanEvalRecord.prompt + humanEvalRecord.canonical_solution);
    expect(value.full_test_func).toBe(`${humanEvalRecord.test}\ncheck(twice)\n`);
    expect(value.demo_test_func).toBe(value.full_test_func);
    expect(value.question).toBe(humanEvalRecord.prompt);
    expect(value.language).toBe("python");
    // Fields no template reads stay with the record.
    expect(value.task_id).toBe("Sample/3");
    expect(value).not.toHaveProperty("entry_point");
    const checked = validateRecord(value);
    expect(checked.ok && checked.record.extra).toEqual({ task_id: "Sample/3" });
  });

  it("names the missing field and what it was read for", () => {
    const { entry_point: _, ...withoutEntryPoint } = humanEvalRecord;
    expect(mappingMessage("humaneval", withoutEntryPoint)).toBe(
      'missing field "entry_point" (the "humaneval" mapping reads it for demo_test_func)',
    );
    expect(mappingMessage("humaneval", { ...humanEvalRecord, test: { cases: [] } })).toBe(
      'field "test" must be text or a list of text, got a object (the "humaneval" mapping reads it for demo_test_func)',
    );
    expect(mappingMessage("humaneval", [1, 2])).toBe("the record must be a JSON object, got a list");
  });
});

describe("the mbpp mapping", () => {
  it("joins test_list after the setup code (MBPP)", () => {
    const value = mapped("mbpp", {
      task_id: 7,
      text: "Write a function to find the larger of two numbers.",
      code: "def larger(a, b):\n    return a if a > b else b",
      test_list: ["assert larger(1, 2) == 2", "assert larger(3, 2) == 3"],
      test_setup_code: "import math",
      challenge_test_list: [],
    });
    expect(value.question).toBe("Write a function to find the larger of two numbers.");
    expect(value.demo_test_func).toBe("import math\nassert larger(1, 2) == 2\nassert larger(3, 2) == 3\n");
    expect(value.full_test_func).toBe(value.demo_test_func);
    expect(validateRecord(value).ok).toBe(true);
  });

  it("reads prompt and test (EvalPlus MBPP+)", () => {
    const value = mapped("mbpp", {
      task_id: "Mbpp/2",
      prompt: '"""Return the larger of a and b."""',
      code: "def larger(a, b):\n    return max(a, b)",
      test: "assert larger(5, 4) == 5",
    });
    expect(value.question).toBe('"""Return the larger of a and b."""');
    expect(value.full_test_func).toBe("\nassert larger(5, 4) == 5\n");
    expect(validateRecord(value).ok).toBe(true);
  });

  it("leaves an MBPP record without a statement to validation, which says so", () => {
    const value = mapped("mbpp", { code: "x = 1", test_list: ["assert x == 1"] });
    expect(validateRecord(value)).toEqual({ ok: false, message: 'field "question" is empty' });
  });
});

describe("the humaneval-x mapping", () => {
  it("reads the language from the task id and keeps each language's test whole", () => {
    const value = mapped("humaneval-x", {
      task_id: "CPP/3",
      prompt: "#include<stdio.h>\nint twice(int n){\n",
      canonical_solution: "    return n * 2;\n}\n",
      test: "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (twice(4) == 8);\n}\n",
    });
    expect(value.language).toBe("CPP");
    expect(value.canonical_solution).toBe("#include<stdio.h>\nint twice(int n){\n    return n * 2;\n}\n");
    const checked = validateRecord(value);
    expect(checked.ok && checked.record.language).toBe("cpp");
  });

  it("puts Go's test setup (package and imports) before its test", () => {
    const value = mapped("humaneval-x", {
      task_id: "Go/3",
      prompt: "func Twice(n int) int {\n",
      canonical_solution: "    return n * 2\n}\n",
      test_setup: 'package main\n\nimport (\n    "testing"\n)\n',
      test: "func TestTwice(t *testing.T) {\n}\n",
    });
    expect(value.full_test_func).toBe(
      'package main\n\nimport (\n    "testing"\n)\nfunc TestTwice(t *testing.T) {\n}\n',
    );
  });

  it("builds a Rust solution from the declaration (use lines and signature), the docstring and the body", () => {
    const value = mapped("humaneval-x-rust", {
      task_id: "Rust/3",
      declaration: "\nuse regex::Regex;\nfn twice(n: i32) -> i32 {\n",
      prompt: "\n/*\n Twice n.\n*/\n",
      canonical_solution: "    n * 2\n}\n",
      test: "\n#[cfg(test)]\nmod tests {\n}\n",
    });
    expect(value.canonical_solution).toBe(
      "\nuse regex::Regex;\nfn twice(n: i32) -> i32 {\n\n/*\n Twice n.\n*/\n    n * 2\n}\n",
    );
    const checked = validateRecord(value);
    expect(checked.ok && checked.record.language).toBe("rust");
  });

  it("refuses a task id without a language prefix", () => {
    expect(mappingMessage("humaneval-x", { task_id: "12", prompt: "p", canonical_solution: "c", test: "t" })).toBe(
      'field "task_id" does not match "^([A-Za-z+#]+)/" (the "humaneval-x" mapping reads it for language)',
    );
  });
});

describe("a mapping given as JSON", () => {
  it("maps with constants, joins and optional fields", () => {
    const mapping = parseFieldMapping({
      name: "ours",
      fields: {
        question: "statement",
        canonical_solution: "solution",
        demo_test_func: { field: "demo", optional: true },
        full_test_func: { field: "tests", join: "\n\n" },
        language: "lang",
        difficulty: "level",
      },
    });
    const result = applyFieldMapping(mapping, {
      statement: "s",
      solution: "x = 1",
      tests: ["assert x == 1", "assert x > 0"],
      lang: "py",
      level: "Hard",
    });
    expect(result).toEqual({
      ok: true,
      value: {
        question: "s",
        canonical_solution: "x = 1",
        demo_test_func: "",
        full_test_func: "assert x == 1\n\nassert x > 0",
        language: "py",
        difficulty: "Hard",
      },
    });
  });

  it("names every bad path of a bad mapping", () => {
    expect(
      zodPaths(() =>
        parseFieldMapping({
          name: "bad",
          fields: {
            question: "q",
            canonical_solution: [],
            demo_test_func: { field: "t", match: "(" },
            language: { text: 3 },
            solution: "s",
          },
        }),
      ),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/^fields: /), expect.stringMatching(/^fields\./)]));
    expect(zodPaths(() => resolveFieldMapping("{not json"))[0]).toMatch(/^: the mapping is not valid JSON/);
    expect(zodPaths(() => resolveFieldMapping("humaneval-y"))[0]).toBe(
      ': unknown mapping "humaneval-y" (shipped: humaneval, mbpp, humaneval-x, humaneval-x-rust; or give the mapping\'s JSON)',
    );
    expect(
      zodPaths(() =>
        resolveFieldMapping(
          JSON.stringify({
            name: "m",
            fields: { ...BUILTIN_MAPPINGS.humaneval.fields, language: { field: "id", match: "no-group" } },
          }),
        ),
      ),
    ).toEqual(["fields.language.match: must be a regular expression with one capture group, e.g. ^([^/]+)/"]);
  });

  it("compiles every shipped mapping", () => {
    for (const name of Object.keys(BUILTIN_MAPPINGS)) expect(resolveFieldMapping(name).name).toBe(name);
  });
});
