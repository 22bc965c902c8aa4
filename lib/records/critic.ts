import { z } from "zod";

import { checkJsonValue, isJsonTooDeep } from "./json-limits";

const criticRuleSchema = z.object({ rule: z.string(), passed: z.boolean().nullable(), reason: z.string() });

/** One of the critic's per-rule checks; `passed` is null when the critic's answer could not be read. */
export type CriticRule = z.infer<typeof criticRuleSchema>;

/**
 * The per-rule checks as stored (a JSON column written from `CriticVerdict.rules`), read back into
 * their type in one place. A value of another shape — only a hand-edited database has one — reads
 * as no rules rather than as wrong ones.
 */
export function storedCriticRules(value: unknown): CriticRule[] {
  const parsed = z.array(criticRuleSchema).safeParse(value);
  return parsed.success ? parsed.data : [];
}

/** The critic's verdict on a record, normalised from whatever shape the generator wrote. */
export type CriticVerdict = {
  overallPass: boolean | null;
  failedRules: string[];
  rules: CriticRule[];
  keyPoints: string[];
  reasoning: string | null;
  raw: string;
};

/** A line of a separate critic file, matched to a record by line number or content hash. */
export type CriticLineResult =
  { ok: true; line: number | null; key: string | null; verdict: CriticVerdict } | { ok: false; message: string };

type JsonObject = Record<string, unknown>;

// Brace matching is quadratic in the worst case (prose full of stray "{"), so cap the attempts.
const MAX_BRACE_CANDIDATES = 64;
const MAX_UNWRAP_DEPTH = 4;
const FENCED_BLOCK = /```[a-zA-Z0-9_-]*[^\S\n]*\n?([\s\S]*?)```/g;

const TRUE_WORDS = new Set(["true", "yes", "y", "pass", "passed", "ok", "1"]);
const FALSE_WORDS = new Set(["false", "no", "n", "fail", "failed", "0"]);
const NONE_WORDS = new Set(["", "none", "null", "n/a", "na", "-", "[]", "nil", "empty"]);

/** Parses the critic fields embedded in a record; null when none of them carries anything. */
export function parseCritic(input: {
  critic?: unknown;
  criticResult?: unknown;
  criticReasoning?: unknown;
}): CriticVerdict | null {
  const outputs = [input.critic, input.criticResult].filter(isPresent);
  const reasoning = isPresent(input.criticReasoning) ? textOf(input.criticReasoning) : null;
  if (outputs.length === 0 && reasoning === null) return null;
  if (outputs.length === 0) return parseCriticOutput(undefined, reasoning);
  const verdicts = outputs.map((output) => parseCriticOutput(output, reasoning));
  // Some generators store both the model's prose and an extracted result; use whichever decided.
  return verdicts.find((v) => v.overallPass !== null) ?? verdicts[0];
}

/** Normalises one critic answer (object, JSON text, fenced JSON, prose) into a verdict; never throws. */
export function parseCriticOutput(output: unknown, reasoning?: string | null): CriticVerdict {
  const raw = rawText(output);
  const verdict: CriticVerdict = {
    overallPass: null,
    failedRules: [],
    rules: [],
    keyPoints: [],
    reasoning: reasoning && reasoning.trim() !== "" ? reasoning : null,
    raw,
  };
  try {
    const found = findCriticObject(output, 0);
    if (found) {
      fillFromObject(verdict, found);
    } else if (typeof output === "string") {
      // Text that parsed as JSON was read as JSON above: a verdict nested where no critic puts one
      // (under "__proto__", say) must not be picked up again as prose.
      fillFromProse(verdict, proseOutsideJson(output));
    }
  } catch {
    // Defensive: a verdict with overallPass null is the right answer for input we cannot read.
  }
  return verdict;
}

/** Parses one line of a separate critic JSONL file (`line` or `key`/`hash`, plus the critic output). */
export function parseCriticLine(value: unknown): CriticLineResult {
  if (!isPlainObject(value)) {
    return { ok: false, message: `the critic line must be a JSON object, got ${describeType(value)}` };
  }
  let line: number | null = null;
  if (value.line !== undefined && value.line !== null) {
    const n = typeof value.line === "string" && /^\s*\d+\s*$/.test(value.line) ? Number(value.line) : value.line;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1) {
      return { ok: false, message: `field "line" must be a positive integer, got ${describeValue(value.line)}` };
    }
    line = n;
  }
  let key: string | null = null;
  for (const name of ["key", "hash"] as const) {
    const candidate = value[name];
    if (candidate === undefined || candidate === null) continue;
    if (typeof candidate !== "string" || candidate.trim() === "") {
      return { ok: false, message: `field "${name}" must be a non-empty string` };
    }
    key = candidate.trim().toLowerCase();
    break;
  }
  if (line === null && key === null) {
    return { ok: false, message: 'the critic line needs a "line" number or a "key"/"hash"' };
  }
  const reasoningValue = [value.critic_reasoning, value.reasoning].find(isPresent);
  const reasoning = reasoningValue === undefined ? null : textOf(reasoningValue);
  let output = [value.critic, value.critic_result, value.output].find(isPresent);
  if (output === undefined && (hasCriticShape(value) || isPlainObject(value.summary))) {
    // The critic JSON itself with a line/key added to it.
    const addressing = new Set(["line", "key", "hash", "reasoning", "critic_reasoning"]);
    output = Object.fromEntries(Object.entries(value).filter(([name]) => !addressing.has(name)));
  }
  if (output === undefined && reasoning === null) {
    return { ok: false, message: 'the critic line has no "critic", "critic_result" or "output"' };
  }
  const verdict = parseCriticOutput(output, reasoning);
  // The line as written and the verdict decoded from its JSON text: PostgreSQL must be able to store both.
  const problem = checkJsonValue(value, "line") ?? checkJsonValue(verdict, "verdict");
  if (problem?.kind === "character") return { ok: false, message: `the critic line contains ${problem.message}` };
  return { ok: true, line, key, verdict };
}

function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function describeValue(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : describeType(value);
}

function rawText(output: unknown): string {
  if (output === undefined || output === null) return "";
  if (typeof output === "string") return output;
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}

function textOf(value: unknown): string {
  return typeof value === "string" ? value : rawText(value);
}

const SUMMARY_FIELDS = ["overall_pass", "overallPass", "failed_rules", "failedRules"];

function hasCriticShape(obj: JsonObject): boolean {
  if ("rule_results" in obj || "ruleResults" in obj || "overall_pass" in obj || "overallPass" in obj) return true;
  const summary = obj.summary;
  return isPlainObject(summary) && SUMMARY_FIELDS.some((name) => name in summary);
}

// Finds the object holding rule_results/summary, looking through strings and wrapper fields.
function findCriticObject(value: unknown, depth: number): JsonObject | null {
  if (depth > MAX_UNWRAP_DEPTH) return null;
  if (typeof value === "string") {
    for (const candidate of jsonCandidates(value)) {
      const found = findCriticObject(candidate, depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (Array.isArray(value)) {
    // Chat transcripts: the last message usually holds the answer.
    for (let i = value.length - 1; i >= 0; i--) {
      const found = findCriticObject(value[i], depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (!isPlainObject(value)) return null;
  if (hasCriticShape(value)) return value;
  for (const field of ["critic", "critic_result", "result", "output", "response", "content", "text", "message"]) {
    if (field in value) {
      const found = findCriticObject(value[field], depth + 1);
      if (found) return found;
    }
  }
  return null;
}

// Yields parsed JSON values found in text: the whole text, fenced blocks, then balanced {…} spans.
function* jsonCandidates(text: string): Generator<unknown> {
  const whole = tryParseJson(text.trim());
  if (whole.ok) {
    yield whole.value;
    // A JSON string holding JSON (double-encoded output).
    if (typeof whole.value !== "string") return;
  }
  for (const match of text.matchAll(FENCED_BLOCK)) {
    const fenced = tryParseJson(match[1].trim());
    if (fenced.ok) yield fenced.value;
  }
  let attempts = 0;
  for (let start = text.indexOf("{"); start !== -1 && attempts < MAX_BRACE_CANDIDATES; attempts++) {
    const end = matchingBrace(text, start);
    if (end === -1) break;
    const span = tryParseJson(text.slice(start, end + 1));
    if (span.ok) yield span.value;
    // On success keep looking only after this span (outermost first); on failure try nested braces.
    start = text.indexOf("{", span.ok ? end + 1 : start + 1);
  }
}

// The text with every part that parses as JSON (the whole, fenced blocks, balanced {…} spans) blanked.
function proseOutsideJson(text: string): string {
  const whole = tryParseJson(text.trim());
  if (whole.ok && typeof whole.value !== "string") return "";
  const unfenced = text.replace(FENCED_BLOCK, (block, inner: string) => (tryParseJson(inner.trim()).ok ? " " : block));
  let prose = "";
  let kept = 0;
  let attempts = 0;
  for (let start = unfenced.indexOf("{"); start !== -1 && attempts < MAX_BRACE_CANDIDATES; attempts++) {
    const end = matchingBrace(unfenced, start);
    if (end === -1) break;
    const isJson = tryParseJson(unfenced.slice(start, end + 1)).ok;
    if (isJson) {
      prose += `${unfenced.slice(kept, start)} `;
      kept = end + 1;
    }
    start = unfenced.indexOf("{", isJson ? end + 1 : start + 1);
  }
  return prose + unfenced.slice(kept);
}

// Index of the "}" closing the "{" at `start`, honouring JSON strings and escapes; -1 if unbalanced.
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) return i;
  }
  return -1;
}

function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  // Too deep to stringify again later: read it as prose, keeping the raw text.
  if (text === "" || isJsonTooDeep(text)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // LLMs often emit Python literals or trailing commas; retry once with those repaired.
    const repaired = repairJson(text);
    if (repaired === text) return { ok: false };
    try {
      return { ok: true, value: JSON.parse(repaired) };
    } catch {
      return { ok: false };
    }
  }
}

// Replaces True/False/None outside strings and drops trailing commas before } or ].
function repairJson(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === "\\" && i + 1 < text.length) out += text[++i];
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      continue;
    }
    const word = /^(True|False|None)\b/.exec(text.slice(i, i + 6));
    if (word && !/[A-Za-z0-9_]/.test(text[i - 1] ?? "")) {
      out += word[1] === "True" ? "true" : word[1] === "False" ? "false" : "null";
      i += word[1].length - 1;
      continue;
    }
    if (ch === ",") {
      const rest = /^\s*[}\]]/.exec(text.slice(i + 1, i + 65));
      if (rest) continue;
    }
    out += ch;
  }
  return out;
}

function fillFromObject(verdict: CriticVerdict, obj: JsonObject): void {
  const summary = isPlainObject(obj.summary) ? obj.summary : obj;
  verdict.rules = parseRules(obj.rule_results ?? obj.ruleResults);
  verdict.failedRules = parseList(summary.failed_rules ?? summary.failedRules ?? obj.failed_rules);
  verdict.keyPoints = parseList(summary.key_points ?? summary.keyPoints ?? obj.key_points);
  const overall = parseBoolean(summary.overall_pass ?? summary.overallPass ?? obj.overall_pass);
  // Only a named failure proves a fail; the per-rule booleans are too unreliable to decide either way.
  verdict.overallPass = overall ?? (verdict.failedRules.length > 0 ? false : null);
  if (verdict.reasoning === null) {
    const inline = obj.reasoning ?? obj.critic_reasoning ?? summary.reasoning;
    if (typeof inline === "string" && inline.trim() !== "") verdict.reasoning = inline;
  }
}

function parseRules(value: unknown): CriticRule[] {
  const entries: [string | null, unknown][] = Array.isArray(value)
    ? value.map((item) => [null, item])
    : isPlainObject(value)
      ? Object.entries(value)
      : [];
  const rules: CriticRule[] = [];
  for (const [name, item] of entries) {
    if (isPlainObject(item)) {
      const rule = item.rule ?? item.name ?? item.rule_name ?? name ?? "";
      rules.push({
        rule: typeof rule === "string" ? rule.trim() : rawText(rule),
        passed: parseBoolean(item.result ?? item.passed ?? item.pass ?? item.status),
        reason: typeof item.reason === "string" ? item.reason : rawText(item.reason ?? item.explanation),
      });
    } else if (name !== null) {
      // {"rule name": "pass"} map form.
      rules.push({ rule: name, passed: parseBoolean(item), reason: "" });
    }
  }
  return rules;
}

function parseBoolean(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value === 1 ? true : value === 0 ? false : null;
  if (typeof value !== "string") return null;
  const word = value
    .trim()
    .toLowerCase()
    .replace(/^["'`]+|["'`.!]+$/g, "");
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}

function parseList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) {
    return value
      .map((item) => (typeof item === "string" ? item.trim() : ruleNameOf(item)))
      .filter((item) => !NONE_WORDS.has(item.toLowerCase()));
  }
  if (typeof value !== "string") return NONE_WORDS.has(rawText(value).toLowerCase()) ? [] : [rawText(value)];
  const text = value.trim();
  if (text.startsWith("[")) {
    const parsed = tryParseJson(text);
    if (parsed.ok && Array.isArray(parsed.value)) return parseList(parsed.value);
  }
  // "rule a, rule b" or a bulleted list, one per line.
  const separator = text.includes("\n") ? /\n+/ : /[,;]/;
  return text
    .split(separator)
    .map((item) => item.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, "").trim())
    .filter((item) => !NONE_WORDS.has(item.toLowerCase()));
}

function ruleNameOf(item: unknown): string {
  if (isPlainObject(item) && typeof item.rule === "string") return item.rule.trim();
  return rawText(item);
}

// Plain text only counts when it states the verdict in the critic's own terms.
function fillFromProse(verdict: CriticVerdict, text: string): void {
  const overall = /["']?overall[_ ]pass["']?\s*(?:[:=]|\bis\b)\s*["']?(true|false|yes|no|pass|fail)\b/i.exec(text);
  if (overall) verdict.overallPass = parseBoolean(overall[1]);
  const failed = /["']?failed[_ ]rules["']?\s*[:=]\s*(\[[^\]\n]*\]|[^\n]*)/i.exec(text);
  if (failed) verdict.failedRules = parseList(failed[1]);
  if (verdict.overallPass === null && verdict.failedRules.length > 0) verdict.overallPass = false;
}

/**
 * The confidence a critic states for its verdict (`summary.confidence` or `confidence`), as a
 * probability: a number in [0, 1], or a percentage in (1, 100] scaled down; null when none is stated.
 */
export function findCriticConfidence(output: unknown): number | null {
  try {
    const found = findCriticObject(output, 0);
    if (!found) return null;
    const summary = isPlainObject(found.summary) ? found.summary : {};
    const value = summary.confidence ?? found.confidence;
    const number = typeof value === "string" && value.trim() !== "" ? Number(value.trim().replace(/%$/, "")) : value;
    if (typeof number !== "number" || !Number.isFinite(number) || number < 0 || number > 100) return null;
    return number > 1 ? number / 100 : number;
  } catch {
    return null;
  }
}
