// A critic's prompt: a template over a record's fields and the eight rules, rendered per record.
// Pure, so the CLI, the admin form and the workers agree on what a template may say.

/**
 * The eight rules an AutoCodeBench-style critic checks, in the names the taxonomy maps categories to
 * (lib/annotation/categories.ts, `criticRule`); rule-level calibration matches failed rules by name.
 */
export const CRITIC_RULES = [
  "Naming/Signature Inconsistency",
  "Randomness/Non-reproducible",
  "Incorrect Test Target",
  "Improper Precision Handling",
  "Exception Swallowing",
  "Non-executable Tests",
  "Irrelevant Requirements",
  "Other Issues",
] as const;

/** The fields a template may name as `{{field}}`. */
const TEMPLATE_FIELDS = ["language", "question", "solution", "demo_test", "full_test", "rules"] as const;
type TemplateField = (typeof TEMPLATE_FIELDS)[number];

export type CriticPromptRecord = {
  language: string;
  question: string;
  canonicalSolution: string;
  demoTestFunc: string;
  fullTestFunc: string;
};

const RULE_HINTS: Record<(typeof CRITIC_RULES)[number], string> = {
  "Naming/Signature Inconsistency":
    "the function, class or method names, parameters or return types the tests use differ from what the statement tells the solver to write",
  "Randomness/Non-reproducible":
    "a test's result depends on random numbers, the clock, hash or thread ordering, so it can pass or fail on the same code",
  "Incorrect Test Target":
    "the tests call or check something other than the behaviour the statement asks for (a helper, a side detail)",
  "Improper Precision Handling":
    "floating-point results are compared exactly, or with a tolerance the statement never states",
  "Exception Swallowing": "a test catches errors and carries on, so a wrong solution can still pass",
  "Non-executable Tests": "a test cannot run as written: a syntax error, an undefined helper, a missing import",
  "Irrelevant Requirements": "a test checks behaviour, formats or edge cases the statement does not ask for",
  "Other Issues": "any other reason a correct solution written from the statement would fail these tests",
};

/** The eight rules as a numbered list with what each means, for `{{rules}}`. */
function describeRules(): string {
  return CRITIC_RULES.map((rule, index) => `${index + 1}. ${rule}: ${RULE_HINTS[rule]}.`).join("\n");
}

/**
 * Verity's default critic prompt, in its own words: the record, the eight rules, and the JSON shape
 * lib/records/critic.ts reads (`rule_results` + `summary.overall_pass`), plus an optional confidence.
 */
export const DEFAULT_CRITIC_TEMPLATE = `You review one record of a code benchmark written in {{language}}. A record is a problem statement, a reference solution, a public (demo) test and a private (full) test. A record is usable only if a developer who reads nothing but the statement could write a solution that passes both tests.

Check the record against each of these eight rules:
{{rules}}

## Statement
{{question}}

## Reference solution
\`\`\`{{language}}
{{solution}}
\`\`\`

## Demo test
\`\`\`{{language}}
{{demo_test}}
\`\`\`

## Full test
\`\`\`{{language}}
{{full_test}}
\`\`\`

Answer with one JSON object and nothing else, in this shape:
{
  "rule_results": [
    {"rule": "<rule name exactly as listed>", "result": "pass" or "fail", "reason": "<one sentence>"}
  ],
  "summary": {
    "overall_pass": true or false,
    "failed_rules": ["<names of the rules that failed>"],
    "key_points": ["<short notes>"],
    "confidence": <your confidence from 0 to 1 that overall_pass is right>
  }
}
Give one entry of rule_results per rule, in the order above. overall_pass is true only when no rule fails.`;

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** The placeholders a template names that are not fields (a typo would send the model the braces). */
export function unknownPlaceholders(template: string): string[] {
  const known = new Set<string>(TEMPLATE_FIELDS);
  return [...new Set([...template.matchAll(PLACEHOLDER)].map(([, name]) => name).filter((name) => !known.has(name)))];
}

/** The prompt for one record: every `{{field}}` replaced by the record's text, in one pass (a field's own braces stay). */
export function renderCriticPrompt(template: string, record: CriticPromptRecord): string {
  const values: Record<TemplateField, string> = {
    language: record.language,
    question: record.question,
    solution: record.canonicalSolution,
    demo_test: record.demoTestFunc,
    full_test: record.fullTestFunc,
    rules: describeRules(),
  };
  return template.replace(PLACEHOLDER, (match, name: string) =>
    name in values ? values[name as TemplateField] : match,
  );
}
