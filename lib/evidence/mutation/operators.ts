import type { Language } from "@/lib/records/languages";

import { type Family, familyOf, type Token, tokenize } from "./tokenize";

// The mutation operators: small changes to a canonical solution that a good test should reject.
// Each candidate replaces one stretch of code tokens (never a string or a comment). Pure.

export type MutationOperator = "relational" | "equality" | "arithmetic" | "logical" | "literal" | "boolean" | "return";

export type MutationCandidate = {
  operator: MutationOperator;
  /** Offsets of the replaced stretch in the source: [start, end). */
  start: number;
  end: number;
  original: string;
  replacement: string;
  line: number;
  column: number;
};

const RELATIONAL: Record<string, string> = { "<": "<=", "<=": "<", ">": ">=", ">=": ">" };
const EQUALITY: Record<string, string> = { "==": "!=", "!=": "==", "===": "!==", "!==": "===" };
const ARITHMETIC: Record<string, string> = { "+": "-", "-": "+", "*": "/", "/": "*", "+=": "-=", "-=": "+=" };
const LOGICAL: Record<string, string> = { "&&": "||", "||": "&&" };
const SHELL_TESTS: Record<string, string> = { lt: "le", le: "lt", gt: "ge", ge: "gt", eq: "ne", ne: "eq" };
const LISP_SYMBOLS: Record<string, [MutationOperator, string]> = {
  "<": ["relational", "<="],
  "<=": ["relational", "<"],
  ">": ["relational", ">="],
  ">=": ["relational", ">"],
  "+": ["arithmetic", "-"],
  "-": ["arithmetic", "+"],
  "*": ["arithmetic", "/"],
  "#t": ["boolean", "#f"],
  "#f": ["boolean", "#t"],
  "#true": ["boolean", "#false"],
  "#false": ["boolean", "#true"],
  and: ["logical", "or"],
  or: ["logical", "and"],
};

/** Boolean literals per language, each with its opposite. */
function booleanFlips(language: Language): Record<string, string> {
  if (language === "python") return { True: "False", False: "True" };
  if (language === "r") return { TRUE: "FALSE", FALSE: "TRUE" };
  return { true: "false", false: "true" };
}

/** What `return <expr>` becomes when its value is replaced by a constant, per language; null: not mutated. */
function returnConstant(language: Language, isBoolean: boolean): string | null {
  if (isBoolean) return language === "python" ? "False" : language === "r" ? "FALSE" : "false";
  switch (language) {
    case "python":
      return "None";
    case "ruby":
      return "nil";
    case "julia":
      return "nothing";
    case "r":
      return "NULL";
    case "javascript":
    case "typescript":
    case "php":
    case "dart":
      return "null";
    case "perl":
      return "undef";
    case "shell":
    case "elixir":
    case "racket":
      return null;
    default:
      // Typed languages: 0 builds where a number is returned; elsewhere the mutant is stillborn.
      return "0";
  }
}

const isCode = (token: Token) => token.kind !== "comment" && token.kind !== "string";
const isBlank = (token: Token | undefined) => token === undefined || token.kind === "space" || token.kind === "newline";

function candidate(operator: MutationOperator, token: Token, replacement: string): MutationCandidate {
  return {
    operator,
    start: token.start,
    end: token.start + token.text.length,
    original: token.text,
    replacement,
    line: token.line,
    column: token.column,
  };
}

/** C-like languages whose statements end at the line's end (no semicolons needed). */
const NEWLINE_TERMINATED = new Set<Language>(["go", "kotlin", "scala", "swift", "javascript", "typescript"]);

/** `return <expr>` on one line, as a candidate that returns a constant instead; null when the grammar is not simple. */
function returnCandidate(tokens: Token[], at: number, language: Language, family: Family): MutationCandidate | null {
  const expression: Token[] = [];
  let depth = 0;
  for (let index = at + 1; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.kind === "newline") {
      if ((family === "c-like" && !NEWLINE_TERMINATED.has(language)) || depth > 0) return null;
      break;
    }
    if (token.text === ";" && depth === 0) break;
    if (token.text === "{" || token.text === "}") return null;
    if (token.text === "(" || token.text === "[") depth++;
    if (token.text === ")" || token.text === "]") depth--;
    if (depth < 0) return null;
    expression.push(token);
  }
  const code = expression.filter((token) => !isBlank(token));
  if (code.length === 0 || code.some((token) => token.kind === "comment")) return null;
  const first = code[0];
  const last = code[code.length - 1];
  const original = tokens
    .slice(tokens.indexOf(first), tokens.indexOf(last) + 1)
    .map((token) => token.text)
    .join("");
  const isBoolean = code.some(
    (token) => token.kind === "operator" && (RELATIONAL[token.text] || EQUALITY[token.text] || LOGICAL[token.text]),
  );
  const replacement = returnConstant(language, isBoolean);
  // Returning a constant already is not a change worth a run.
  if (!replacement || code.length === 1 || original === replacement) return null;
  return {
    operator: "return",
    start: first.start,
    end: last.start + last.text.length,
    original,
    replacement,
    line: first.line,
    column: first.column,
  };
}

/** Every mutation the operators allow in a source, in source order. */
export function mutationCandidates(source: string, language: Language): MutationCandidate[] {
  const tokens = tokenize(source, language);
  const family = familyOf(language);
  const flips = booleanFlips(language);
  const candidates: MutationCandidate[] = [];
  tokens.forEach((token, index) => {
    if (!isCode(token)) return;
    const before = tokens[index - 1];
    const after = tokens[index + 1];

    if (family === "lisp") {
      const symbol = token.kind === "word" ? LISP_SYMBOLS[token.text] : undefined;
      if (symbol) candidates.push(candidate(symbol[0], token, symbol[1]));
      else if (token.kind === "number" && /^\d+$/.test(token.text)) pushLiteral(candidates, token);
      return;
    }

    if (token.kind === "operator") {
      // A bare < or > without space on both sides is too often a generic or a redirection (vector<int>, echo >f).
      const isSpaced = isBlank(before) && isBlank(after);
      if (language === "shell") {
        if ((token.text === "==" || token.text === "!=") && isSpaced)
          candidates.push(candidate("equality", token, EQUALITY[token.text]));
        return;
      }
      if (RELATIONAL[token.text] && (token.text.length === 2 || isSpaced))
        candidates.push(candidate("relational", token, RELATIONAL[token.text]));
      else if (EQUALITY[token.text]) candidates.push(candidate("equality", token, EQUALITY[token.text]));
      else if (LOGICAL[token.text]) candidates.push(candidate("logical", token, LOGICAL[token.text]));
      else if (ARITHMETIC[token.text] && (token.text.length === 2 || isSpaced))
        candidates.push(candidate("arithmetic", token, ARITHMETIC[token.text]));
      return;
    }
    if (token.kind === "number") {
      if (/^\d+$/.test(token.text) && before?.text !== "." && after?.text !== ".") pushLiteral(candidates, token);
      return;
    }
    if (token.kind !== "word") return;
    if (language === "shell") {
      // [ "$a" -lt "$b" ]: the test operators are a dash and a word.
      if (SHELL_TESTS[token.text] && before?.text === "-" && isBlank(after) && isBlank(tokens[index - 2]))
        candidates.push(candidate("relational", token, SHELL_TESTS[token.text]));
      else if (flips[token.text]) candidates.push(candidate("boolean", token, flips[token.text]));
      return;
    }
    if (language === "python" || language === "ruby" || language === "elixir") {
      if (token.text === "and" || token.text === "or")
        candidates.push(candidate("logical", token, token.text === "and" ? "or" : "and"));
    }
    if (flips[token.text] && before?.text !== "." && after?.text !== ":") {
      candidates.push(candidate("boolean", token, flips[token.text]));
      return;
    }
    if (token.text === "return" && !(before && isWordLike(before))) {
      const mutation = returnCandidate(tokens, index, language, family);
      if (mutation) candidates.push(mutation);
    }
  });
  if (language === "scala") {
    candidates.push(...scalaResultCandidates(source, tokens));
    candidates.sort((a, b) => a.start - b.start);
  }
  return candidates;
}

const isWordLike = (token: Token) => token.kind === "word" || token.text === ".";

/** A Scala function header whose declared result a constant can stand for: `def name(…): Long =`. */
const SCALA_RESULT_HEADER =
  /\bdef\s+\w+\s*(?:\[[^\]]*\])?\s*(?:\((?:[^()]|\([^()]*\))*\)\s*)*:\s*(Int|Long|Short|Byte|Double|Float|Boolean)\s*=(?!=)/g;

/**
 * Scala has no `return` in the usual style: a function's result is its body, an expression. For a
 * function declared to return a number or a Boolean whose body is one line (after `=`, on the same
 * line or the next, brackets balanced, the line after it no deeper than the `def`), the same "return
 * a constant" mutant the other languages get from `return <expr>`.
 */
function scalaResultCandidates(source: string, tokens: Token[]): MutationCandidate[] {
  const found: MutationCandidate[] = [];
  for (const header of source.matchAll(SCALA_RESULT_HEADER)) {
    const equals = (header.index ?? 0) + header[0].length;
    let at = tokens.findIndex((token) => token.start >= equals);
    if (at === -1) continue;
    let newlines = 0;
    while (tokens[at] && isBlank(tokens[at])) newlines += tokens[at++].kind === "newline" ? 1 : 0;
    const first = tokens[at];
    if (!first || newlines > 1 || first.text === "{" || !isCode(first)) continue;
    let depth = 0;
    let end = at;
    for (; end < tokens.length && tokens[end].kind !== "newline"; end++) {
      if (["(", "[", "{"].includes(tokens[end].text)) depth++;
      if ([")", "]", "}"].includes(tokens[end].text)) depth--;
      if (depth < 0) break;
    }
    const body = tokens.slice(at, end).filter((token) => !isBlank(token));
    const last = body[body.length - 1];
    if (depth !== 0 || body.length < 2 || body.some((token) => token.kind === "comment") || last.kind === "operator")
      continue;
    // The line after the body must not go on with it (deeper than the `def`, or a `.call`).
    const defLine = source.lastIndexOf("\n", header.index ?? 0) + 1;
    const defIndent = /^[ \t]*/.exec(source.slice(defLine))![0].length;
    const rest = source.slice(last.start + last.text.length).replace(/^[^\n]*\n?/, "");
    const next = /^(?:[ \t]*\n)*([ \t]*)(\S?)/.exec(rest)!;
    if (next[2] && (next[1].length > defIndent || next[2] === ".")) continue;
    const replacement = header[1] === "Boolean" ? "false" : "0";
    const original = source.slice(first.start, last.start + last.text.length);
    if (original === replacement) continue;
    found.push({
      operator: "return",
      start: first.start,
      end: last.start + last.text.length,
      original,
      replacement,
      line: first.line,
      column: first.column,
    });
  }
  return found;
}

function pushLiteral(candidates: MutationCandidate[], token: Token): void {
  const value = Number(token.text);
  if (!Number.isSafeInteger(value)) return;
  // Keep the literal's own spelling of zero-padded numbers out (07 is octal in some languages).
  if (token.text.length > 1 && token.text.startsWith("0")) return;
  candidates.push(candidate("literal", token, String(value + 1)));
  if (value > 0) candidates.push(candidate("literal", token, String(value - 1)));
}
