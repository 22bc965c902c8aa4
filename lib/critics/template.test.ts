import { describe, expect, it } from "vitest";

import { parseCriticOutput } from "@/lib/records/critic";
import { criticAnswer } from "@/lib/testing/fake-openai";

import { CRITIC_RULES, DEFAULT_CRITIC_TEMPLATE, renderCriticPrompt, unknownPlaceholders } from "./template";

const record = {
  language: "python",
  question: "Write `f(x)`; a literal {{solution}} in a statement stays as written.",
  canonicalSolution: "def f(x):\n    return x\n",
  demoTestFunc: "assert f(1) == 1\n",
  fullTestFunc: "assert f(2) == 2\n",
};

describe("critic prompt templates", () => {
  it("fills every field of the record and the eight rules into the default template", () => {
    expect(unknownPlaceholders(DEFAULT_CRITIC_TEMPLATE)).toEqual([]);
    const prompt = renderCriticPrompt(DEFAULT_CRITIC_TEMPLATE, { ...record, question: "Write `f(x)`." });
    for (const text of [
      "Write `f(x)`.",
      record.canonicalSolution,
      record.demoTestFunc,
      record.fullTestFunc,
      "```python",
    ])
      expect(prompt).toContain(text);
    for (const rule of CRITIC_RULES) expect(prompt).toContain(`${rule}:`);
    expect(prompt).toContain('"rule_results"');
    expect(prompt).toContain('"overall_pass"');
    expect(prompt).not.toMatch(/\{\{\s*(language|question|solution|demo_test|full_test|rules)\s*\}\}/);
  });

  it("replaces in one pass, so a record's own braces are not expanded", () => {
    expect(renderCriticPrompt("Q: {{ question }}", record)).toBe(`Q: ${record.question}`);
  });

  it("names unknown placeholders once each", () => {
    expect(unknownPlaceholders("{{questoin}} {{question}} {{ questoin }} {{tests}}")).toEqual(["questoin", "tests"]);
  });

  it("asks for the shape the critic parser reads", () => {
    const verdict = parseCriticOutput(criticAnswer({ pass: false, failedRules: ["Improper Precision Handling"] }));
    expect(verdict.overallPass).toBe(false);
    expect(verdict.failedRules).toEqual(["Improper Precision Handling"]);
    expect(verdict.rules.map((rule) => rule.rule)).toEqual([...CRITIC_RULES]);
  });
});
