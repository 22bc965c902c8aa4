import type { Language } from "@/lib/records/languages";

import type { Mutant } from "./mutate";
import { type Token, tokenize } from "./tokenize";

// Mutant schemata ("mutation switching"): all of a record's mutants in one program, each behind a
// switch the harness sets per run through the SANDBOX_MUTANT variable, so a compiled language pays one
// compile for every mutant instead of one each. A mutant is switched only where its switch keeps the
// program's meaning exactly (the operands of a changed operator are found without doubt, the switch
// is an expression the language has); anything else is left to be compiled on its own, with the
// reason. Pure.

/** The variable a switched program reads to know which mutant is on (its position); unset: none. */
export const MUTANT_VARIABLE = "SANDBOX_MUTANT";

export type SwitchingLanguage = "cpp" | "java" | "kotlin" | "scala" | "rust" | "go";

const SWITCHING_LANGUAGES = new Set<Language>(["cpp", "java", "kotlin", "scala", "rust", "go"]);

export function isSwitchingLanguage(language: Language): language is SwitchingLanguage {
  return SWITCHING_LANGUAGES.has(language);
}

/** A mutant that stays out of the switched program, and why (shown in the run's details). */
type UnswitchedMutant = { position: number; reason: string };

export type MutantSchema = {
  /** The solution with every switched mutant behind its switch, and the switch's helper. */
  source: string;
  /** The positions of the mutants behind a switch in `source`. */
  positions: number[];
  /** Each switch's text (one text wherever it stands: a switch inside another stands in both its branches). */
  switchTexts: Map<number, string>;
  unswitched: UnswitchedMutant[];
};

type Switches = {
  /** The call that is true when mutant `position` is on. */
  on(position: number): string;
  /** An expression: `whenOn` while mutant `position` is on, else `otherwise`; null: the language has none. */
  choose: ((on: string, whenOn: string, otherwise: string) => string) | null;
  /**
   * Where there is no such expression: a call that evaluates both sides and returns one, so usable
   * only where evaluating both changes nothing (literals; operands without calls, no division).
   */
  chooseEagerly?: (on: string, whenOn: string, otherwise: string) => string;
  /** A statement: `whenOn` while the mutant is on, else `otherwise` (the original's terminator follows). */
  statement(on: string, whenOn: string, otherwise: string): string;
  /** The helper `on` calls, and where it goes: before or after the solution. */
  helper: { text: string; isPrefix: boolean };
};

const SWITCHES: Record<SwitchingLanguage, Switches> = {
  cpp: {
    on: (position) => `verity_mutant_on(${position})`,
    choose: (on, whenOn, otherwise) => `(${on} ? (${whenOn}) : (${otherwise}))`,
    statement: (on, whenOn, otherwise) => `if (${on}) ${whenOn}; else ${otherwise}`,
    helper: {
      text:
        "#include <cstdlib>\n" +
        `static bool verity_mutant_on(int k) { static const int id = std::getenv("${MUTANT_VARIABLE}") ? ` +
        `std::atoi(std::getenv("${MUTANT_VARIABLE}")) : -1; return id == k; }\n`,
      isPrefix: true,
    },
  },
  java: {
    on: (position) => `VerityMutant.on(${position})`,
    choose: (on, whenOn, otherwise) => `(${on} ? (${whenOn}) : (${otherwise}))`,
    statement: (on, whenOn, otherwise) => `if (${on}) ${whenOn}; else ${otherwise}`,
    helper: {
      text:
        "\nclass VerityMutant {\n" +
        "    static final int ID = read();\n" +
        "    static boolean on(int k) { return ID == k; }\n" +
        "    private static int read() {\n" +
        `        try { return Integer.parseInt(System.getenv("${MUTANT_VARIABLE}")); } catch (RuntimeException e) { return -1; }\n` +
        "    }\n}\n",
      isPrefix: false,
    },
  },
  kotlin: {
    on: (position) => `VerityMutant.on(${position})`,
    choose: (on, whenOn, otherwise) => `(if (${on}) (${whenOn}) else (${otherwise}))`,
    statement: (on, whenOn, otherwise) => `if (${on}) ${whenOn} else ${otherwise}`,
    helper: {
      text:
        `\nobject VerityMutant {\n    val id: Int = System.getenv("${MUTANT_VARIABLE}")?.toIntOrNull() ?: -1\n` +
        "    fun on(k: Int): Boolean = id == k\n}\n",
      isPrefix: false,
    },
  },
  scala: {
    on: (position) => `VerityMutant.on(${position})`,
    choose: (on, whenOn, otherwise) => `(if (${on}) (${whenOn}) else (${otherwise}))`,
    statement: (on, whenOn, otherwise) => `if (${on}) ${whenOn} else ${otherwise}`,
    helper: {
      text:
        `\nobject VerityMutant {\n  val id: Int = sys.env.get("${MUTANT_VARIABLE}").flatMap(_.toIntOption).getOrElse(-1)\n` +
        "  def on(k: Int): Boolean = id == k\n}\n",
      isPrefix: false,
    },
  },
  rust: {
    on: (position) => `verity_mutant_on(${position})`,
    choose: (on, whenOn, otherwise) => `(if ${on} { ${whenOn} } else { ${otherwise} })`,
    statement: (on, whenOn, otherwise) => `if ${on} { ${whenOn}; } else { ${otherwise} }`,
    helper: {
      text:
        "\n#[allow(dead_code)]\nstatic SANDBOX_MUTANT_ID: std::sync::OnceLock<i64> = std::sync::OnceLock::new();\n" +
        "#[allow(dead_code)]\nfn verity_mutant_on(k: i64) -> bool {\n" +
        `    *SANDBOX_MUTANT_ID.get_or_init(|| std::env::var("${MUTANT_VARIABLE}").ok().and_then(|v| v.parse().ok()).unwrap_or(-1)) == k\n}\n`,
      isPrefix: false,
    },
  },
  go: {
    on: (position) => `verityMutantOn("${position}")`,
    // Go has no conditional expression; a generic call infers the type both sides share.
    choose: null,
    chooseEagerly: (on, whenOn, otherwise) => `veritySel(${on}, ${whenOn}, ${otherwise})`,
    statement: (on, whenOn, otherwise) => `if ${on} { ${whenOn} } else { ${otherwise} }`,
    helper: {
      text:
        `\nimport verityos "os"\n\nfunc verityMutantOn(k string) bool { return verityos.Getenv("${MUTANT_VARIABLE}") == k }\n` +
        "\nfunc veritySel[T any](on bool, whenOn, otherwise T) T {\n\tif on {\n\t\treturn whenOn\n\t}\n\treturn otherwise\n}\n",
      isPrefix: false,
    },
  },
};

/** Binding strength of the binary operators a switch may have to step over (C's order; higher binds tighter). */
const LEVEL: Record<string, number> = {
  "*": 6,
  "/": 6,
  "%": 6,
  "+": 5,
  "-": 5,
  "<": 4,
  "<=": 4,
  ">": 4,
  ">=": 4,
  "==": 3,
  "!=": 3,
  "&&": 2,
  "||": 1,
};

/** How many times longer than the solution its switched program may grow. */
const MAX_GROWTH = 8;
const COMPOUND = new Set(["+=", "-="]);
/** Statements end at a line's end in these, so a newline outside brackets ends an operand. */
const NEWLINE_ENDS = new Set<Language>(["go", "kotlin", "scala"]);
/** What joins the parts of one operand (`a.b`, `a::b`, `p->x`, `a?.b`), written without spaces. */
const CONNECTORS: Record<SwitchingLanguage, Set<string>> = {
  cpp: new Set([".", "::", "->"]),
  java: new Set(["."]),
  kotlin: new Set([".", "?."]),
  scala: new Set(["."]),
  rust: new Set([".", "::"]),
  go: new Set(["."]),
};
/** Words that may stand right before an expression (the operand's left edge). */
const LEADING_WORDS = new Set(["return", "if", "while", "else", "in", "match", "yield", "assert"]);
const OPENERS = new Set(["(", "[", "{"]);
const CLOSERS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
const OPENS: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

type Code = { source: string; tokens: Token[]; language: SwitchingLanguage };

const isSpace = (token: Token | undefined) => token?.kind === "space" || token?.kind === "comment";
const isAtom = (token: Token) => token.kind === "word" || token.kind === "number" || token.kind === "string";

/** The index of the next token that is not a space or comment (newlines count), from `index` on in `step`. */
function skipSpaces(tokens: Token[], index: number, step: 1 | -1): number {
  let at = index;
  while (at >= 0 && at < tokens.length && isSpace(tokens[at])) at += step;
  return at;
}

/** Skips newlines too, unless the language ends statements at them. */
function skipBlank(code: Code, index: number, step: 1 | -1): number {
  let at = skipSpaces(code.tokens, index, step);
  while (!NEWLINE_ENDS.has(code.language) && code.tokens[at]?.kind === "newline") {
    at = skipSpaces(code.tokens, at + step, step);
  }
  return at;
}

/** The index of the bracket matching the one at `index`, in `step`'s direction; -1 when unbalanced. */
function matching(tokens: Token[], index: number, step: 1 | -1): number {
  let depth = 0;
  for (let at = index; at >= 0 && at < tokens.length; at += step) {
    const text = tokens[at].kind === "punct" ? tokens[at].text : "";
    if ((step === 1 && OPENS[text]) || (step === -1 && CLOSERS[text])) depth++;
    else if ((step === 1 && CLOSERS[text]) || (step === -1 && OPENS[text])) depth--;
    if (depth === 0) return at;
  }
  return -1;
}

/**
 * One operand chain read to the right from `index`: unary `!`/`-`/`~`, then atoms and bracket groups
 * joined by connectors or calls (`f(x)`, `a[i]`, `a.b`). Returns the index after its last token, or
 * -1 when the chain is not one clear operand (two atoms apart, a `{`, a connector at the end).
 */
function chainRight(code: Code, index: number): number {
  const { tokens } = code;
  let at = skipBlank(code, index, 1);
  while (tokens[at] && ["!", "-", "~"].includes(tokens[at].text) && tokens[at].kind === "operator") {
    at = skipBlank(code, at + 1, 1);
  }
  let end = -1;
  let expectsPart = true;
  while (at < tokens.length) {
    const token = tokens[at];
    if (expectsPart) {
      if (isAtom(token)) end = at + 1;
      else if (token.text === "(" || token.text === "[") {
        const close = matching(tokens, at, 1);
        if (close === -1) return -1;
        end = close + 1;
      } else return -1;
      expectsPart = false;
      at = end;
      continue;
    }
    if (CONNECTORS[code.language].has(token.text)) {
      expectsPart = true;
      at++;
      continue;
    }
    // A call or an index right after a part, with no space between.
    if (token.text === "(" || token.text === "[") {
      const close = matching(tokens, at, 1);
      if (close === -1) return -1;
      end = close + 1;
      at = end;
      continue;
    }
    break;
  }
  return expectsPart ? -1 : end;
}

/** The same chain read to the left, ending just before `index`. Returns its first token's index, or -1. */
function chainLeft(code: Code, index: number): number {
  const { tokens } = code;
  let at = skipSpaces(tokens, index - 1, -1);
  if (NEWLINE_ENDS.has(code.language) && tokens[at]?.kind === "newline") return -1;
  at = skipBlank(code, at, -1);
  let first = -1;
  for (;;) {
    const token = tokens[at];
    if (!token) return -1;
    if (isAtom(token)) first = at;
    else if (token.text === ")" || token.text === "]") {
      first = matching(tokens, at, -1);
      if (first === -1) return -1;
    } else return -1;
    const before = tokens[first - 1];
    if (before && CONNECTORS[code.language].has(before.text)) {
      at = first - 2;
      continue;
    }
    // `f(x)` / `a[i]`: a group right after a part.
    if ((token.text === ")" || token.text === "]") && before && (isAtom(before) || CLOSERS[before.text])) {
      at = first - 1;
      continue;
    }
    break;
  }
  // A unary operator right before the chain belongs to it when what precedes it cannot end an operand.
  const unary = skipSpaces(tokens, first - 1, -1);
  if (tokens[unary] && ["!", "-", "~"].includes(tokens[unary].text)) {
    const ahead = tokens[skipBlank(code, unary - 1, -1)];
    if (!ahead || ahead.kind === "operator" || OPENERS.has(ahead.text) || ahead.text === "," || ahead.text === ";")
      return unary;
  }
  return first;
}

/**
 * The operands of the binary operator at `index`: the whole stretch `[start, end)` the operator joins,
 * stepping over operators that bind tighter, or null when its edges are not certain.
 */
function operands(code: Code, index: number): { start: number; end: number } | null {
  const { tokens } = code;
  const level = LEVEL[tokens[index].text];
  let end = chainRight(code, index + 1);
  while (end !== -1) {
    const next = skipBlank(code, end, 1);
    const token = tokens[next];
    if (token?.kind === "operator" && (LEVEL[token.text] ?? 0) > level) end = chainRight(code, next + 1);
    else break;
  }
  let start = chainLeft(code, index);
  while (start !== -1) {
    const previous = skipBlank(code, start - 1, -1);
    const token = tokens[previous];
    if (token?.kind === "operator" && (LEVEL[token.text] ?? 0) > level) start = chainLeft(code, previous);
    else break;
  }
  if (start === -1 || end === -1) return null;
  return isLeftEdge(code, start, level) && isRightEdge(code, end, level, start) ? { start, end } : null;
}

/** Whether what stands before `start` ends an expression there for certain. */
function isLeftEdge(code: Code, start: number, level: number): boolean {
  const at = skipBlank(code, start - 1, -1);
  const token = code.tokens[at];
  if (!token || token.kind === "newline") return true;
  if (token.kind === "word") return LEADING_WORDS.has(token.text);
  if (["(", "[", "{", ",", ";"].includes(token.text)) return true;
  if (token.kind !== "operator") return false;
  if (["=", ":=", "+=", "-=", "*=", "/=", "?", ":", "=>", "->"].includes(token.text)) return true;
  return (LEVEL[token.text] ?? 99) < level;
}

/** Whether what stands at `end` ends the expression there for certain. */
function isRightEdge(code: Code, end: number, level: number, start: number): boolean {
  const at = skipBlank(code, end, 1);
  const token = code.tokens[at];
  if (!token || token.kind === "newline") return true;
  if (token.kind === "word") return token.text === "else";
  if ([")", "]", "}", ",", ";"].includes(token.text)) return true;
  // `if a < b {` in Go and Rust: the block's brace ends the condition.
  if (token.text === "{") {
    const before = code.tokens[skipBlank(code, start - 1, -1)];
    return (code.language === "go" || code.language === "rust") && ["if", "while", "&&", "||"].includes(before?.text);
  }
  if (token.kind !== "operator") return false;
  if (["?", ":", "=>", "->"].includes(token.text)) return code.language !== "kotlin" || token.text === "->";
  return (LEVEL[token.text] ?? 99) < level;
}

/** Where the statement around a compound assignment or a `return` starts, if it is a whole statement. */
function isStatementStart(code: Code, start: number): boolean {
  const at = skipBlank(code, start - 1, -1);
  const token = code.tokens[at];
  return !token || token.kind === "newline" || ["{", "}", ";", ")"].includes(token.text) || token.text === "else";
}

function isStatementEnd(code: Code, end: number): boolean {
  const token = code.tokens[skipSpaces(code.tokens, end, 1)];
  if (!token) return true;
  if (token.text === ";") return true;
  if (token.text === "}" || token.text === ",") return code.language === "rust" || NEWLINE_ENDS.has(code.language);
  return token.kind === "newline" && NEWLINE_ENDS.has(code.language);
}

/** The declared return types a literal 0 builds as, per language (anything else refuses `return 0`). */
const ZERO_TYPES: Record<SwitchingLanguage, RegExp> = {
  cpp: /^/,
  java: /^(int|long|short|byte|char|float|double|Integer|Long|Double|Object|Number)$/,
  kotlin: /^(Int|Long|Short|Byte|Any|Number)\??$/,
  scala: /^(Int|Long|Short|Byte|Float|Double|Any|AnyVal)$/,
  rust: /^(i8|i16|i32|i64|i128|isize|u8|u16|u32|u64|u128|usize)$/,
  go: /^(int|int8|int16|int32|int64|uint|uint8|uint16|uint32|uint64|uintptr|float32|float64|byte|rune|any|interface\{\})$/,
};

/** The function headers whose return type follows the parameters, per language; Java's comes first. */
const FUNCTION_HEADERS: Partial<Record<SwitchingLanguage, RegExp>> = {
  go: /\bfunc\s*(?:\([^()]*\)\s*)?\w+\s*(?:\[[^\]]*\])?\((?:[^()]|\([^()]*\))*\)\s*()([^{\n]*?)\s*\{/g,
  rust: /\bfn\s+\w+\s*(?:<[^>]*>)?\s*\(([^()]|\([^()]*\))*\)\s*(?:->\s*([^{\n]*?))?\s*(?:where[^{]*)?\{/g,
  kotlin: /\bfun\s+(?:<[^>]*>\s*)?[\w.]+\s*\(([^()]|\([^()]*\))*\)\s*(?::\s*([^{=\n]*?))?\s*[{=]/g,
  scala: /\bdef\s+\w+\s*(?:\[[^\]]*\])?\s*(?:\(([^()]|\([^()]*\))*\)\s*)*(?::\s*([^={\n]*?))?\s*=/g,
  java: /([\w.<>[\], ?]+?)\s+(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:throws[^{]*)?\{/g,
};

const JAVA_MODIFIERS = /^(?:(?:public|private|protected|static|final|synchronized|abstract|default)\s+)*/;
const JAVA_NOT_HEADERS = new Set([
  "if",
  "while",
  "for",
  "switch",
  "catch",
  "synchronized",
  "else",
  "return",
  "new",
  "throw",
]);

/**
 * The declared return type of the function a `return` at `offset` is in, as written; null where it
 * cannot be read (no header found, a C++ type, which 0 converts to too freely to tell). Nested
 * functions and lambdas may mislead it: it only decides whether to switch, never an outcome.
 */
function declaredReturnType(source: string, language: SwitchingLanguage, offset: number): string | null {
  const header = FUNCTION_HEADERS[language];
  if (!header) return null;
  let found: string | null = null;
  for (const match of source.slice(0, offset).matchAll(header)) {
    if (language !== "java") found = match[2]?.trim() ?? (language === "go" ? "" : "Unit");
    // `} else if (x) {` and `return new Foo(x) {` read like headers: not functions.
    else {
      const type = match[1].trim().replace(JAVA_MODIFIERS, "");
      if (!JAVA_NOT_HEADERS.has(match[2]) && !JAVA_NOT_HEADERS.has(type.split(/\s+/)[0])) found = type;
    }
  }
  return found === "" ? null : found;
}

/**
 * A mutant's switch: the stretch `[start, end)` of the solution it replaces, and its text made from
 * `render`, which gives a stretch of the solution with the switches inside it already in place (so a
 * switch may hold others: `a + b < c` with both operators mutated).
 */
type Switch = { start: number; end: number; make(render: Render): string } | { reason: string };
type Render = (from: number, to: number) => string;

const startOf = (tokens: Token[], index: number) => tokens[index].start;
const endOf = (tokens: Token[], index: number) => tokens[index].start + tokens[index].text.length;

/** The switch for one mutant, or why there is none. */
function switchFor(code: Code, mutant: Mutant, switches: Switches): Switch {
  const { tokens } = code;
  const index = tokens.findIndex((token) => token.start === mutant.start);
  if (index === -1) return { reason: "its change does not start at a token" };
  const on = switches.on(mutant.position);
  const token = tokens[index];
  const lineStart = tokens.findLastIndex((each, at) => at < index && each.kind === "newline") + 1;
  if (code.language === "cpp" && tokens[skipSpaces(tokens, lineStart, 1)]?.text === "#")
    return { reason: "a preprocessor line is fixed before the program runs" };
  const changed = { start: mutant.start, end: mutant.end };

  if (mutant.operator === "literal" || mutant.operator === "boolean") {
    const before = tokens[skipBlank(code, index - 1, -1)];
    const after = tokens[skipBlank(code, index + 1, 1)];
    if (before?.text === "case" || (["=>", ":"].includes(after?.text ?? "") && before?.text !== "?"))
      return { reason: "a pattern or label must be a constant" };
    if (tokens[index - 1]?.text === "<" && tokens[index + 1]?.text === ">")
      return { reason: "a type's or template's argument must be a constant" };
    if (mutant.operator === "boolean")
      return {
        ...changed,
        make: (render) => `((${on} && ${mutant.replacement}) || (!${on} && ${render(mutant.start, mutant.end)}))`,
      };
    const choose = switches.choose ?? switches.chooseEagerly;
    if (!choose) return { reason: "the language has no expression to switch a number with" };
    return { ...changed, make: (render) => choose(on, mutant.replacement, render(mutant.start, mutant.end)) };
  }

  if (mutant.operator === "return") {
    const keyword = skipSpaces(tokens, index - 1, -1);
    // A Scala function's result expression (operators.ts): the body after `def …: T =`, one line.
    let header = keyword;
    while (tokens[header]?.kind === "newline") header = skipSpaces(tokens, header - 1, -1);
    if (code.language === "scala" && tokens[header]?.text === "=" && switches.choose) {
      const choose = switches.choose;
      return { ...changed, make: (render) => choose(on, mutant.replacement, render(mutant.start, mutant.end)) };
    }
    const after = tokens.findIndex((each) => each.start >= mutant.end);
    if (
      tokens[keyword]?.text !== "return" ||
      !isStatementStart(code, keyword) ||
      !isStatementEnd(code, after === -1 ? tokens.length : after)
    )
      return { reason: "its return is not a statement of its own" };
    const declared = mutant.replacement === "0" ? declaredReturnType(code.source, code.language, mutant.start) : null;
    if (declared !== null && !ZERO_TYPES[code.language].test(declared))
      return { reason: `its function returns ${declared}, which 0 is not: a switch would not build` };
    return {
      start: startOf(tokens, keyword),
      end: mutant.end,
      make: (render) =>
        switches.statement(on, `return ${mutant.replacement}`, `return ${render(mutant.start, mutant.end)}`),
    };
  }

  if (COMPOUND.has(token.text)) {
    const left = chainLeft(code, index);
    const right = chainRight(code, index + 1);
    if (left === -1 || right === -1 || !isStatementStart(code, left) || !isStatementEnd(code, right))
      return { reason: "its assignment is not a statement of its own" };
    const start = startOf(tokens, left);
    const end = endOf(tokens, right - 1);
    return {
      start,
      end,
      make: (render) => {
        const target = render(start, mutant.start);
        const value = render(mutant.end, end);
        return switches.statement(on, `${target}${mutant.replacement}${value}`, `${target}${mutant.original}${value}`);
      },
    };
  }

  if (LEVEL[token.text] === undefined) return { reason: "its operator is not one a switch can step over" };
  const span = operands(code, index);
  if (!span) return { reason: "the edges of its operands are not certain without a parser" };
  const start = startOf(tokens, span.start);
  const end = endOf(tokens, span.end - 1);
  const both = (render: Render) => {
    const left = render(start, mutant.start);
    const right = render(mutant.end, end);
    return { whenOn: `${left}${mutant.replacement}${right}`, otherwise: `${left}${mutant.original}${right}` };
  };
  if (mutant.operator !== "arithmetic") {
    return {
      start,
      end,
      make: (render) => {
        const { whenOn, otherwise } = both(render);
        return `((${on} && (${whenOn})) || (!${on} && (${otherwise})))`;
      },
    };
  }
  const hasCall = tokens.slice(span.start, span.end).some((each) => each.text === "(");
  const isEagerSafe = !hasCall && (mutant.original === "+" || mutant.original === "-");
  const choose = switches.choose ?? (isEagerSafe ? switches.chooseEagerly : undefined);
  if (!choose)
    return {
      reason: "both sides of its switch would be evaluated, and a call or a division may not be evaluated twice",
    };
  return {
    start,
    end,
    make: (render) => {
      const { whenOn, otherwise } = both(render);
      return choose(on, whenOn, otherwise);
    },
  };
}

type Site = { position: number; start: number; end: number; make(render: Render): string };

/**
 * The switched program of a solution's mutants: each mutant not in `excluded` whose switch is certain
 * replaces its stretch of the solution (a switch may hold smaller ones; one that crosses another's
 * edge stays out), and the helper that reads SANDBOX_MUTANT is added. Null when the language has no
 * switching.
 */
export function mutantSchema(
  source: string,
  language: Language,
  mutants: readonly Mutant[],
  excluded: ReadonlyMap<number, string> = new Map(),
): MutantSchema | null {
  if (!isSwitchingLanguage(language)) return null;
  const switches = SWITCHES[language];
  const code: Code = { source, tokens: tokenize(source, language), language };
  const unswitched: UnswitchedMutant[] = [];
  const found: Site[] = [];
  for (const mutant of mutants) {
    const reason = excluded.get(mutant.position);
    if (reason) {
      unswitched.push({ position: mutant.position, reason });
      continue;
    }
    const result = switchFor(code, mutant, switches);
    if ("reason" in result) unswitched.push({ position: mutant.position, reason: result.reason });
    else found.push({ position: mutant.position, ...result });
  }
  // Smallest first, so a switch that holds others is placed after them.
  found.sort((a, b) => a.end - a.start - (b.end - b.start) || a.position - b.position);
  const sites: Site[] = [];
  for (const site of found) {
    const crosses = sites.some(
      (other) =>
        site.start < other.end && other.start < site.end && !(site.start <= other.start && other.end <= site.end),
    );
    if (crosses) unswitched.push({ position: site.position, reason: "its switch would cross another mutant's" });
    else sites.push(site);
  }
  // Spans now nest or stand apart. A later site holds the earlier ones inside its span (an equal span
  // too: two mutants of one token). `render` writes a stretch with the sites below rank `below` in it.
  const switchTexts = new Map<number, string>();
  const render = (from: number, to: number, below: number): string => {
    const inside = sites.slice(0, below).filter((site) => from <= site.start && site.end <= to);
    const outermost = inside.filter(
      (site, rank) =>
        !inside.some((other, otherRank) => otherRank > rank && other.start <= site.start && site.end <= other.end),
    );
    let text = "";
    let at = from;
    for (const site of outermost.sort((a, b) => a.start - b.start)) {
      const rank = sites.indexOf(site);
      const made = site.make((innerFrom, innerTo) => render(innerFrom, innerTo, rank));
      switchTexts.set(site.position, made);
      text += source.slice(at, site.start) + made;
      at = site.end;
    }
    return text + source.slice(at, to);
  };
  // Each switch writes its operands twice, so deep nesting doubles the text at every level: past a
  // bound, the widest switches are left to be compiled on their own.
  let body = render(0, source.length, sites.length);
  while (body.length > MAX_GROWTH * source.length + 10_000 && sites.length > 0) {
    const widest = sites.reduce((a, b) => (b.end - b.start > a.end - a.start ? b : a));
    sites.splice(sites.indexOf(widest), 1);
    unswitched.push({ position: widest.position, reason: "its switch would make the program too long" });
    body = render(0, source.length, sites.length);
  }
  const switched = switches.helper.isPrefix ? `${switches.helper.text}${body}` : `${body}${switches.helper.text}`;
  return {
    source: switched,
    positions: sites.map((site) => site.position).sort((a, b) => a - b),
    switchTexts,
    unswitched: unswitched.sort((a, b) => a.position - b.position),
  };
}

const SOURCE_PLACE = /[\w./-]+\.(?:cpp|java|kts|kt|scala|sc|rs|go):(\d+)(?::(\d+))?/g;

/**
 * The places a compiler's output names as errors: `file:line[:column]` on a line that says error, or
 * in the block that follows one (rustc's `--> file:line:column`, Scala's framed messages), or before
 * any label (Go's); a warning's places and a note's are not. Pure.
 */
function errorPlaces(compileOutput: string): { line: number; column: number | null }[] {
  const places: { line: number; column: number | null }[] = [];
  // Go's compiler and vet name no "error": a place counts unless a warning or a note introduced it.
  let isInError = true;
  for (const text of compileOutput.split("\n")) {
    if (/\berror\b/i.test(text)) isInError = true;
    else if (/\b(?:warning|note)\b/i.test(text)) isInError = false;
    if (!isInError) continue;
    for (const match of text.matchAll(SOURCE_PLACE))
      places.push({ line: Number(match[1]), column: match[2] ? Number(match[2]) : null });
  }
  return places;
}

/** Every stretch of `program` where `text` stands: [start, end) offsets. */
function stretchesOf(program: string, text: string): [number, number][] {
  const found: [number, number][] = [];
  for (let at = program.indexOf(text); at !== -1; at = program.indexOf(text, at + 1))
    found.push([at, at + text.length]);
  return found;
}

/**
 * The mutants a compiler refused in a switched program: for each error place, the innermost switch
 * that holds it (with a column), or every switch on its line (without one). Empty when it names none
 * of them (the failure is not a switch's).
 */
export function refusedSwitches(
  program: string,
  compileOutput: string,
  schema: Pick<MutantSchema, "switchTexts">,
): number[] {
  const lineStarts = [0];
  for (let at = program.indexOf("\n"); at !== -1; at = program.indexOf("\n", at + 1)) lineStarts.push(at + 1);
  const stretches = [...schema.switchTexts].flatMap(([position, text]) =>
    stretchesOf(program, text).map(([start, end]) => ({ position, start, end })),
  );
  const refused = new Set<number>();
  for (const { line, column } of errorPlaces(compileOutput)) {
    const lineStart = lineStarts[line - 1];
    if (lineStart === undefined) continue;
    const lineEnd = lineStarts[line] ?? program.length;
    if (column === null) {
      for (const each of stretches) if (each.start < lineEnd && lineStart < each.end) refused.add(each.position);
      continue;
    }
    const offset = lineStart + column - 1;
    const holders = stretches.filter((each) => each.start <= offset && offset < each.end);
    const innermost = holders.sort((a, b) => a.end - a.start - (b.end - b.start))[0];
    if (innermost) refused.add(innermost.position);
  }
  return [...refused].sort((a, b) => a - b);
}
