import { describe, expect, it } from "vitest";
import { recordKey } from "./hash";
import { MAX_FIELD_BYTES, validateRecord } from "./validate";

const valid = {
  question: "Write a Python function `add(a, b)` that returns the sum.",
  canonical_solution: "def add(a, b):\n    return a + b\n",
  demo_test_func: "def test():\n    assert add(1, 2) == 3\n",
  full_test_func: "def test():\n    assert add(1, 2) == 3\n    assert add(-1, 1) == 0\n",
  language: "python",
};

function messageOf(value: unknown): string {
  const result = validateRecord(value);
  if (result.ok) throw new Error("expected the record to be rejected");
  return result.message;
}

describe("validateRecord", () => {
  it("accepts a minimal record and keys it by content", () => {
    const result = validateRecord(valid);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.record).toEqual({
      key: recordKey({
        language: "python",
        question: valid.question,
        canonicalSolution: valid.canonical_solution,
        demoTestFunc: valid.demo_test_func,
        fullTestFunc: valid.full_test_func,
      }),
      language: "python",
      difficulty: null,
      question: valid.question,
      canonicalSolution: valid.canonical_solution,
      demoTestFunc: valid.demo_test_func,
      fullTestFunc: valid.full_test_func,
      extra: {},
      critic: null,
    });
  });

  it("normalises language aliases and gives aliased records the same key", () => {
    const a = validateRecord({ ...valid, language: " Py " });
    const b = validateRecord(valid);
    expect(a.ok && a.record.language).toBe("python");
    expect(a.ok && b.ok && a.record.key === b.record.key).toBe(true);
  });

  it.each([
    ["Hard", "hard"],
    [" easy ", "easy"],
    ["MEDIUM", "medium"],
    ["", null],
    [null, null],
  ])("reads difficulty %j as %j", (difficulty, expected) => {
    const result = validateRecord({ ...valid, difficulty });
    expect(result.ok && result.record.difficulty).toBe(expected);
  });

  it("keeps unknown fields in extra, in order, and takes the critic fields out", () => {
    const result = validateRecord({
      index: 7,
      ...valid,
      tags: ["dp", "graphs"],
      seed: { value: 1 },
      critic: '{"summary": {"overall_pass": false, "failed_rules": ["Naming"]}}',
      critic_reasoning: "trace",
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.record.extra).toEqual({ index: 7, tags: ["dp", "graphs"], seed: { value: 1 } });
    expect(Object.keys(result.record.extra)).toEqual(["index", "tags", "seed"]);
    expect(result.record.critic?.overallPass).toBe(false);
    expect(result.record.critic?.failedRules).toEqual(["Naming"]);
    expect(result.record.critic?.reasoning).toBe("trace");
  });

  it("keeps a __proto__ field as data rather than a prototype", () => {
    const value = JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(valid).slice(1)}`);
    const result = validateRecord(value);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.hasOwn(result.record.extra, "__proto__")).toBe(true);
    expect((result.record.extra as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("keeps solution text exactly as given, whitespace included", () => {
    const result = validateRecord({ ...valid, canonical_solution: "\n  x = 1\n\n" });
    expect(result.ok && result.record.canonicalSolution).toBe("\n  x = 1\n\n");
  });

  it.each([
    [[valid], "the record must be a JSON object, got array"],
    [null, "the record must be a JSON object, got null"],
    ["text", "the record must be a JSON object, got string"],
    [3, "the record must be a JSON object, got number"],
  ])("rejects a non-object %j", (value, message) => {
    expect(messageOf(value)).toBe(message);
  });

  it.each(["question", "canonical_solution", "demo_test_func", "full_test_func", "language"])(
    "names the missing field %s",
    (field) => {
      const { [field as keyof typeof valid]: _omitted, ...rest } = valid;
      expect(messageOf(rest)).toBe(`missing field "${field}"`);
    },
  );

  it.each([
    ["demo_test_func", 3, 'field "demo_test_func" must be a string, got number'],
    ["question", null, 'field "question" must be a string, got null'],
    ["full_test_func", ["a"], 'field "full_test_func" must be a string, got array'],
    ["canonical_solution", { code: "x" }, 'field "canonical_solution" must be a string, got object'],
    ["language", true, 'field "language" must be a string, got boolean'],
    ["difficulty", 2, 'field "difficulty" must be a string, got number'],
  ])("rejects %s of the wrong type", (field, value, message) => {
    expect(messageOf({ ...valid, [field]: value })).toBe(message);
  });

  it.each(["question", "canonical_solution", "demo_test_func", "full_test_func"])("rejects a blank %s", (field) => {
    expect(messageOf({ ...valid, [field]: " \n\t" })).toBe(`field "${field}" is empty`);
  });

  it("rejects an unknown language and lists the known ones", () => {
    expect(messageOf({ ...valid, language: "cobol" })).toBe(
      'unknown language "cobol" (expected one of python, cpp, java, javascript, go, shell, csharp, dart, elixir, ' +
        "julia, kotlin, perl, php, racket, r, ruby, rust, scala, swift, typescript)",
    );
  });

  it("truncates a long bad value in the message", () => {
    expect(messageOf({ ...valid, language: "x".repeat(500) })).toMatch(/^unknown language "x{40}…" \(expected/);
  });

  it("rejects an unknown difficulty", () => {
    expect(messageOf({ ...valid, difficulty: "extreme" })).toBe(
      'unknown difficulty "extreme" (expected easy, medium or hard)',
    );
  });

  it("rejects a field over 1 MB in UTF-8 bytes, not characters", () => {
    const big = "é".repeat(Math.ceil((1.3 * MAX_FIELD_BYTES) / 2));
    expect(big.length).toBeLessThan(MAX_FIELD_BYTES);
    expect(messageOf({ ...valid, question: big })).toBe('field "question" is 1.3 MB, over the 1 MB limit');
  });

  it("accepts a field of exactly 1 MB and shows bytes when just over", () => {
    expect(validateRecord({ ...valid, full_test_func: "a".repeat(MAX_FIELD_BYTES) }).ok).toBe(true);
    expect(messageOf({ ...valid, full_test_func: "a".repeat(MAX_FIELD_BYTES + 1) })).toBe(
      'field "full_test_func" is 1,048,577 bytes, over the 1 MB limit',
    );
  });

  it("limits unknown fields and critic fields by their JSON size", () => {
    const bigArray = Array.from({ length: 300_000 }, () => 1234567);
    expect(messageOf({ ...valid, samples: bigArray })).toBe('field "samples" is 2.3 MB, over the 1 MB limit');
    expect(messageOf({ ...valid, critic_reasoning: "r".repeat(2 * MAX_FIELD_BYTES) })).toBe(
      'field "critic_reasoning" is 2.0 MB, over the 1 MB limit',
    );
  });

  it("rejects a NUL character (\\u0000) anywhere, naming where it is", () => {
    const nul = "a\u0000b";
    expect(messageOf({ ...valid, question: nul })).toBe(
      'field "question" contains a NUL character (\\u0000), which cannot be stored',
    );
    expect(messageOf({ ...valid, language: "py\u0000" })).toBe(
      'field "language" contains a NUL character (\\u0000), which cannot be stored',
    );
    expect(messageOf({ ...valid, notes: { tags: ["ok", nul] } })).toBe(
      'field "notes.tags[1]" contains a NUL character (\\u0000), which cannot be stored',
    );
    expect(messageOf({ ...valid, notes: { [nul]: 1 } })).toBe(
      'field "notes" has a key with a NUL character (\\u0000), which cannot be stored',
    );
    expect(messageOf({ ...valid, [nul]: 1 })).toBe(
      'field "a\\u0000b" contains a NUL character (\\u0000), which cannot be stored',
    );
    expect(messageOf({ ...valid, critic_result: nul })).toBe(
      'field "critic_result" contains a NUL character (\\u0000), which cannot be stored',
    );
    expect(messageOf({ ...valid, critic_reasoning: nul })).toBe(
      'field "critic_reasoning" contains a NUL character (\\u0000), which cannot be stored',
    );
  });

  it("rejects an unpaired surrogate, which jsonb refuses, but keeps real astral characters", () => {
    const message = "an unpaired surrogate (a lone \\ud800–\\udfff escape), which is not Unicode text";
    expect(messageOf({ ...valid, notes: "x\ud800" })).toBe(`field "notes" contains ${message}`);
    expect(messageOf({ ...valid, canonical_solution: "# \udc00" })).toBe(
      `field "canonical_solution" contains ${message}`,
    );
    expect(messageOf({ ...valid, meta: { ["k\ud83d"]: 1 } })).toBe(`field "meta" has a key with ${message}`);
    expect(validateRecord({ ...valid, question: `${valid.question} 😀`, notes: "𝄞" }).ok).toBe(true);
  });

  it("rejects a critic answer whose JSON text decodes to a NUL character", () => {
    const critic = JSON.stringify({ summary: { overall_pass: false, failed_rules: ["x\u0000"] } });
    expect(critic).toContain("\\u0000");
    expect(messageOf({ ...valid, critic })).toBe(
      "the critic output holds JSON text with a NUL character (\\u0000), which cannot be stored",
    );
    expect(messageOf({ ...valid, critic_result: { output: critic } })).toBe(
      "the critic output holds JSON text with a NUL character (\\u0000), which cannot be stored",
    );
  });

  it("rejects fields nested deeper than 64 levels, and circular values, without throwing", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(messageOf({ ...valid, samples: deep })).toBe(
      'field "samples" is nested deeper than 64 levels of arrays and objects',
    );
    expect(messageOf({ ...valid, critic_result: { summary: deep } })).toBe(
      'field "critic_result" is nested deeper than 64 levels of arrays and objects',
    );
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(messageOf({ ...valid, meta: circular })).toBe(
      'field "meta" is nested deeper than 64 levels of arrays and objects',
    );
  });

  it("accepts a critic_result given as an object and keeps its JSON text as raw", () => {
    const criticResult = { summary: { overall_pass: true, failed_rules: [] } };
    const result = validateRecord({ ...valid, critic_result: criticResult });
    expect(result.ok && result.record.critic).toMatchObject({ overallPass: true, raw: JSON.stringify(criticResult) });
  });
});
