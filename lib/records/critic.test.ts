import { describe, expect, it } from "vitest";
import { findCriticConfidence, parseCritic, parseCriticLine, parseCriticOutput, storedCriticRules } from "./critic";

// Written for these tests in the shape the AutoCodeBench critic returns. Note rule 3's result says
// "pass" although it is the failing rule: the generator's per-rule booleans are not trustworthy.
const acbCritic = {
  rule_results: [
    { rule: "Naming/signature inconsistency", result: "pass", reason: "`merge_intervals` is named in the statement." },
    { rule: "Randomness/non-reproducible", result: "pass", reason: "No random input." },
    {
      rule: "Incorrect test target",
      result: "pass",
      reason:
        'The test asserts `merge_intervals([])` returns `{"error": "empty"}`, which the statement never mentions.',
    },
    { rule: "Improper precision handling", result: "pass", reason: "Integers only." },
    { rule: "Exception swallowing", result: "pass", reason: "No try/except in the tests." },
    { rule: "Non-executable tests", result: "pass", reason: "Tests call the function directly." },
    {
      rule: "Irrelevant requirements",
      result: "fail",
      reason: 'The empty-input behaviour {"error": ...} is unstated.',
    },
    { rule: "Other issues", result: "pass", reason: "None." },
  ],
  summary: {
    overall_pass: false,
    failed_rules: ["Irrelevant requirements"],
    key_points: ["Empty-input output is not specified in the statement."],
  },
};

describe("parseCriticOutput", () => {
  it("reads an AutoCodeBench critic object", () => {
    const verdict = parseCriticOutput(acbCritic, "The model thought about it.");
    expect(verdict.overallPass).toBe(false);
    expect(verdict.failedRules).toEqual(["Irrelevant requirements"]);
    expect(verdict.rules).toHaveLength(8);
    expect(verdict.rules[6]).toEqual({
      rule: "Irrelevant requirements",
      passed: false,
      reason: 'The empty-input behaviour {"error": ...} is unstated.',
    });
    expect(verdict.rules.filter((r) => r.passed === true)).toHaveLength(7);
    expect(verdict.keyPoints).toEqual(["Empty-input output is not specified in the statement."]);
    expect(verdict.reasoning).toBe("The model thought about it.");
    expect(verdict.raw).toBe(JSON.stringify(acbCritic));
  });

  it("reads the same critic from a JSON string and keeps the text verbatim", () => {
    const text = JSON.stringify(acbCritic, null, 2);
    const verdict = parseCriticOutput(text);
    expect(verdict.overallPass).toBe(false);
    expect(verdict.rules.map((r) => r.rule)[2]).toBe("Incorrect test target");
    expect(verdict.raw).toBe(text);
    expect(verdict.reasoning).toBeNull();
  });

  it("finds fenced JSON with prose around it", () => {
    const text = [
      "Let me check each rule carefully.",
      "",
      "```json",
      JSON.stringify({ ...acbCritic, summary: { ...acbCritic.summary, overall_pass: true, failed_rules: [] } }),
      "```",
      "",
      "That is my final answer {with a stray brace.",
    ].join("\n");
    const verdict = parseCriticOutput(text);
    expect(verdict.overallPass).toBe(true);
    expect(verdict.failedRules).toEqual([]);
    expect(verdict.rules).toHaveLength(8);
    expect(verdict.raw).toBe(text);
  });

  it("finds bare JSON embedded in prose, with quotes and braces inside the reasons", () => {
    const text =
      'Analysis {draft} done. Result: {"rule_results": [{"rule": "Other issues", "result": "fail", ' +
      '"reason": "prints \\"}{\\" and uses a dict {\\"a\\": [1, 2]}"}], ' +
      '"summary": {"overall_pass": "false", "failed_rules": "Other issues", "key_points": "- braces {}\\n- quotes \\""}} -- end.';
    const verdict = parseCriticOutput(text);
    expect(verdict.overallPass).toBe(false);
    expect(verdict.failedRules).toEqual(["Other issues"]);
    expect(verdict.rules).toEqual([
      { rule: "Other issues", passed: false, reason: 'prints "}{" and uses a dict {"a": [1, 2]}' },
    ]);
    expect(verdict.keyPoints).toEqual(["braces {}", 'quotes "']);
  });

  it.each([
    ["true", true],
    ["false", false],
    ["yes", true],
    ["No", false],
    [1, true],
    [0, false],
    [" TRUE ", true],
    ["maybe", null],
  ])("reads overall_pass given as %j", (given, expected) => {
    const verdict = parseCriticOutput({ summary: { overall_pass: given, failed_rules: [] } });
    expect(verdict.overallPass).toBe(expected);
  });

  it("reads failed_rules given as a comma-separated string, a JSON-array string or 'none'", () => {
    expect(
      parseCriticOutput({ summary: { overall_pass: false, failed_rules: "Naming, Precision" } }).failedRules,
    ).toEqual(["Naming", "Precision"]);
    expect(parseCriticOutput({ summary: { overall_pass: false, failed_rules: '["Naming"]' } }).failedRules).toEqual([
      "Naming",
    ]);
    expect(parseCriticOutput({ summary: { overall_pass: true, failed_rules: "None" } }).failedRules).toEqual([]);
  });

  it("reads rule results given as booleans or words", () => {
    const verdict = parseCriticOutput({
      rule_results: [
        { rule: "a", result: true, reason: "" },
        { rule: "b", result: "FAIL", reason: "" },
        { rule: "c", result: "unclear", reason: "" },
      ],
      summary: { overall_pass: true },
    });
    expect(verdict.rules.map((r) => r.passed)).toEqual([true, false, null]);
  });

  it("trusts overall_pass over per-rule results", () => {
    const allRulesFail = acbCritic.rule_results.map((r) => ({ ...r, result: "fail" }));
    const verdict = parseCriticOutput({
      rule_results: allRulesFail,
      summary: { overall_pass: true, failed_rules: [] },
    });
    expect(verdict.overallPass).toBe(true);
  });

  it("treats named failed rules as a fail when overall_pass is missing, but never infers a pass", () => {
    expect(parseCriticOutput({ summary: { failed_rules: ["Naming"] } }).overallPass).toBe(false);
    expect(
      parseCriticOutput({ rule_results: acbCritic.rule_results.map((r) => ({ ...r, result: "pass" })) }).overallPass,
    ).toBeNull();
  });

  it("unwraps double-encoded JSON strings", () => {
    const verdict = parseCriticOutput(JSON.stringify(JSON.stringify(acbCritic)));
    expect(verdict.overallPass).toBe(false);
  });

  it("repairs Python-style literals and trailing commas", () => {
    const verdict = parseCriticOutput(
      '{\'x\': 1}\n{"summary": {"overall_pass": False, "failed_rules": ["Naming",],},}',
    );
    expect(verdict.overallPass).toBe(false);
    expect(verdict.failedRules).toEqual(["Naming"]);
  });

  it("leaves plain prose undecided", () => {
    const text = "The tests look reasonable overall, though the statement could be clearer.";
    const verdict = parseCriticOutput(text);
    expect(verdict).toEqual({
      overallPass: null,
      failedRules: [],
      rules: [],
      keyPoints: [],
      reasoning: null,
      raw: text,
    });
  });

  it("reads a verdict stated plainly in prose", () => {
    const verdict = parseCriticOutput("Checked all rules.\noverall_pass: false\nfailed_rules: Naming, Other issues\n");
    expect(verdict.overallPass).toBe(false);
    expect(verdict.failedRules).toEqual(["Naming", "Other issues"]);
    expect(parseCriticOutput('Overall pass is "true".').overallPass).toBe(true);
  });

  it.each([
    ["binary garbage", '\u0000\u0001{{{[["\\'],
    ["a number", 42],
    ["an array of numbers", [1, 2, 3]],
    ["an unrelated object", { foo: "bar" }],
    ["unbalanced JSON without a verdict", '{"summary": {"key_points": ["a"'],
  ])("returns an undecided verdict for %s without throwing", (_name, input) => {
    const verdict = parseCriticOutput(input);
    expect(verdict.overallPass).toBeNull();
    expect(verdict.failedRules).toEqual([]);
    expect(verdict.raw).toBe(typeof input === "string" ? input : JSON.stringify(input));
  });

  it("reads the verdict from a truncated critic answer that still states it", () => {
    const verdict = parseCriticOutput('{"rule_results": [], "summary": {"overall_pass": true, "failed_rules": [');
    expect(verdict.overallPass).toBe(true);
  });

  it("does not throw on circular objects", () => {
    const circular: Record<string, unknown> = { summary: { overall_pass: "yes" } };
    circular.self = circular;
    const verdict = parseCriticOutput(circular);
    expect(verdict.overallPass).toBe(true);
    expect(verdict.raw).toBe("[object Object]");
  });

  it('reads JSON text nested 100,000 deep as prose: no throw, raw kept, never "[object Object]"', () => {
    const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    const text = `{"summary": {"overall_pass": false, "failed_rules": [${deep}]}}`;
    const verdict = parseCriticOutput(text);
    expect(verdict.raw).toBe(text);
    expect(verdict.overallPass).toBe(false);
    expect(JSON.stringify(verdict)).not.toContain("[object Object]");
  });

  it("looks inside wrapper fields such as output or a chat transcript", () => {
    expect(parseCriticOutput({ output: JSON.stringify(acbCritic) }).overallPass).toBe(false);
    const chat = [
      { role: "user", content: "check" },
      { role: "assistant", content: "```json\n" + JSON.stringify(acbCritic) + "\n```" },
    ];
    expect(parseCriticOutput(chat).failedRules).toEqual(["Irrelevant requirements"]);
  });
});

describe("parseCritic", () => {
  it("returns null when no critic field carries anything", () => {
    expect(parseCritic({})).toBeNull();
    expect(parseCritic({ critic: "", criticResult: null, criticReasoning: "   " })).toBeNull();
    expect(parseCritic({ critic: {} })).toBeNull();
  });

  it("parses critic with its reasoning", () => {
    const verdict = parseCritic({ critic: acbCritic, criticReasoning: "trace" });
    expect(verdict?.overallPass).toBe(false);
    expect(verdict?.reasoning).toBe("trace");
  });

  it("falls back to critic_result when critic is undecided prose", () => {
    const verdict = parseCritic({ critic: "I looked at it.", criticResult: { summary: { overall_pass: "yes" } } });
    expect(verdict?.overallPass).toBe(true);
    expect(verdict?.raw).toBe('{"summary":{"overall_pass":"yes"}}');
  });

  it("keeps a reasoning trace that comes alone", () => {
    const verdict = parseCritic({ criticReasoning: "only a trace" });
    expect(verdict).toEqual({
      overallPass: null,
      failedRules: [],
      rules: [],
      keyPoints: [],
      reasoning: "only a trace",
      raw: "",
    });
  });
});

describe("parseCriticLine", () => {
  it("reads a line keyed by line number", () => {
    const result = parseCriticLine({ line: 12, critic: JSON.stringify(acbCritic), critic_reasoning: "r" });
    expect(result).toMatchObject({ ok: true, line: 12, key: null });
    expect(result.ok && result.verdict.overallPass).toBe(false);
    expect(result.ok && result.verdict.reasoning).toBe("r");
  });

  it("reads a line keyed by hash with output and reasoning", () => {
    const hash = "AB".repeat(32);
    const result = parseCriticLine({ hash, output: acbCritic, reasoning: "why" });
    expect(result).toMatchObject({ ok: true, line: null, key: hash.toLowerCase() });
    expect(result.ok && result.verdict.reasoning).toBe("why");
  });

  it("reads the critic JSON itself with a key added", () => {
    const result = parseCriticLine({ key: "abc", ...acbCritic });
    expect(result.ok && result.verdict.failedRules).toEqual(["Irrelevant requirements"]);
    expect(result.ok && result.verdict.raw).not.toContain('"key"');
  });

  it.each([
    [[1, 2], "the critic line must be a JSON object, got array"],
    [{ critic: "x" }, 'the critic line needs a "line" number or a "key"/"hash"'],
    [{ line: 0, critic: "x" }, 'field "line" must be a positive integer, got number'],
    [{ line: "two", critic: "x" }, 'field "line" must be a positive integer, got "two"'],
    [{ key: 5, critic: "x" }, 'field "key" must be a non-empty string'],
    [{ line: 3 }, 'the critic line has no "critic", "critic_result" or "output"'],
  ])("rejects %j", (value, message) => {
    expect(parseCriticLine(value)).toEqual({ ok: false, message });
  });

  it("rejects a line with a NUL character, raw or inside the critic's JSON text", () => {
    const message = "the critic line contains a NUL character (\\u0000), which cannot be stored";
    expect(parseCriticLine({ line: 1, critic: "bad\u0000" })).toEqual({ ok: false, message });
    expect(
      parseCriticLine({
        line: 1,
        critic: JSON.stringify({ summary: { overall_pass: false, key_points: ["\u0000"] } }),
      }),
    ).toEqual({ ok: false, message });
  });

  it("accepts a line number written as a string", () => {
    expect(parseCriticLine({ line: "7", critic_result: acbCritic })).toMatchObject({ ok: true, line: 7 });
  });
});

describe("keys that are not the critic's", () => {
  it("takes no verdict from under a __proto__ key, in JSON, fenced JSON or a JSON span in prose", () => {
    for (const output of [
      '{"__proto__": {"overall_pass": false}}',
      '{"summary": {"__proto__": {"overall_pass": true}, "key_points": []}}',
      '```json\n{"__proto__": {"overall_pass": false, "failed_rules": ["Other Issues"]}}\n```',
      'My answer: {"__proto__": {"overall_pass": false}} and that is all.',
    ]) {
      const verdict = parseCriticOutput(output);
      expect(verdict.overallPass, output).toBeNull();
      expect(verdict.failedRules, output).toEqual([]);
      expect(verdict.raw).toBe(output);
    }
  });

  it("still reads a verdict stated in the prose around such JSON", () => {
    expect(parseCriticOutput('{"__proto__": {"overall_pass": true}}\noverall_pass: false').overallPass).toBe(false);
  });

  it("does not let a critic line's __proto__ decide it", () => {
    const line = parseCriticLine(JSON.parse('{"line": 1, "critic": "{\\"__proto__\\": {\\"overall_pass\\": true}}"}'));
    expect(line).toMatchObject({ ok: true, verdict: { overallPass: null } });
  });
});

describe("findCriticConfidence", () => {
  it("reads a stated confidence as a probability, from bare or fenced JSON", () => {
    expect(findCriticConfidence('{"summary": {"overall_pass": true, "confidence": 0.8}}')).toBe(0.8);
    expect(findCriticConfidence('Sure.\n```json\n{"summary": {"overall_pass": false, "confidence": "85%"}}\n```')).toBe(
      0.85,
    );
    expect(findCriticConfidence({ overall_pass: true, confidence: 90 })).toBe(0.9);
  });

  it("is null when none is stated or it is out of range", () => {
    expect(findCriticConfidence('{"summary": {"overall_pass": true}}')).toBeNull();
    expect(findCriticConfidence('{"summary": {"overall_pass": true, "confidence": -1}}')).toBeNull();
    expect(findCriticConfidence('{"summary": {"overall_pass": true, "confidence": "high"}}')).toBeNull();
    expect(findCriticConfidence("no json here")).toBeNull();
  });
});

describe("storedCriticRules", () => {
  it("reads the stored per-rule checks back, and anything of another shape as none", () => {
    const rules = [
      { rule: "Naming/Signature Inconsistency", passed: true, reason: "same name" },
      { rule: "Other Issues", passed: null, reason: "" },
    ];
    expect(storedCriticRules(rules)).toEqual(rules);
    expect(
      storedCriticRules(
        parseCriticOutput(JSON.stringify({ rule_results: [{ rule: "Other Issues", result: "fail", reason: "x" }] }))
          ?.rules,
      ),
    ).toEqual([{ rule: "Other Issues", passed: false, reason: "x" }]);
    expect(storedCriticRules([{ rule: "Other Issues", passed: "yes", reason: "" }])).toEqual([]);
    expect(storedCriticRules({ rule: "Other Issues" })).toEqual([]);
    expect(storedCriticRules(null)).toEqual([]);
  });
});
