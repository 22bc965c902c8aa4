import type { Language } from "@/lib/records/languages";

// A small tokenizer per language family, just good enough to tell code from strings and comments
// and to find operators, numbers and words in the code. No compiler: a mutation that lands on
// something the tokenizer misreads (a generic's angle bracket, say) only makes a mutant that does
// not build, which is stillborn and not counted. Pure.

type TokenKind = "word" | "number" | "operator" | "punct" | "string" | "comment" | "space" | "newline";

export type Token = {
  kind: TokenKind;
  text: string;
  /** Offset of the first character in the source. */
  start: number;
  /** 1-based line and column of the first character. */
  line: number;
  column: number;
};

export type Family = "c-like" | "hash" | "lisp";

type StringForm = { open: string; close: string; hasEscapes: boolean };

type Syntax = {
  family: Family;
  lineComments: string[];
  blockComments: [string, string][];
  /** Shell and Perl: `#` opens a comment only at a word's start (`$#array`, `${#s}` are code). */
  isHashCommentWordStart: boolean;
  /** Longest first, so `"""` is tried before `"`. */
  strings: StringForm[];
  /** `'x'` is a character literal (and a lone `'` is punctuation: Rust lifetimes, Scala symbols). */
  hasCharLiterals: boolean;
};

/** Multi-character operators, longest first; a lone character is tried after these. */
const OPERATORS = [
  ">>>=",
  "<<=",
  ">>=",
  "===",
  "!==",
  "**=",
  "<=>",
  "...",
  "..<",
  "..=",
  "//=",
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "++",
  "--",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
  "<<",
  ">>",
  "**",
  "//",
  "=>",
  "->",
  "<-",
  "::",
  ":=",
  "=~",
  "!~",
  "|>",
  "<>",
  "..",
  "<?",
  "?>",
  "??",
  "?.",
];
const OPERATOR_CHARS = new Set("+-*/%<>=!&|^~?:.@$");
const PUNCT_CHARS = new Set("()[]{},;");

const C_BLOCK: [string, string] = ["/*", "*/"];
const DOUBLE: StringForm = { open: '"', close: '"', hasEscapes: true };
const SINGLE: StringForm = { open: "'", close: "'", hasEscapes: true };
const TRIPLE_DOUBLE: StringForm = { open: '"""', close: '"""', hasEscapes: true };
const TRIPLE_SINGLE: StringForm = { open: "'''", close: "'''", hasEscapes: true };
const BACKTICK: StringForm = { open: "`", close: "`", hasEscapes: true };

function cLike(strings: StringForm[], { hasCharLiterals = true, lineComments = ["//"] } = {}): Syntax {
  return {
    family: "c-like",
    lineComments,
    blockComments: [C_BLOCK],
    isHashCommentWordStart: false,
    strings,
    hasCharLiterals,
  };
}

function hash(strings: StringForm[], extra: Partial<Syntax> = {}): Syntax {
  return {
    family: "hash",
    lineComments: ["#"],
    blockComments: [],
    isHashCommentWordStart: false,
    strings,
    hasCharLiterals: false,
    ...extra,
  };
}

const SYNTAX: Record<Language, Syntax> = {
  cpp: cLike([{ open: 'R"(', close: ')"', hasEscapes: false }, DOUBLE]),
  java: cLike([TRIPLE_DOUBLE, DOUBLE]),
  csharp: cLike([{ open: '@"', close: '"', hasEscapes: false }, DOUBLE]),
  kotlin: cLike([TRIPLE_DOUBLE, DOUBLE]),
  scala: cLike([TRIPLE_DOUBLE, DOUBLE]),
  go: cLike([{ open: "`", close: "`", hasEscapes: false }, DOUBLE]),
  rust: cLike([{ open: 'r#"', close: '"#', hasEscapes: false }, { open: 'r"', close: '"', hasEscapes: false }, DOUBLE]),
  swift: cLike([TRIPLE_DOUBLE, DOUBLE], { hasCharLiterals: false }),
  javascript: cLike([BACKTICK, DOUBLE, SINGLE], { hasCharLiterals: false }),
  typescript: cLike([BACKTICK, DOUBLE, SINGLE], { hasCharLiterals: false }),
  dart: cLike([TRIPLE_DOUBLE, TRIPLE_SINGLE, DOUBLE, SINGLE], { hasCharLiterals: false }),
  php: cLike([DOUBLE, SINGLE], { hasCharLiterals: false, lineComments: ["//", "#"] }),
  python: hash([TRIPLE_DOUBLE, TRIPLE_SINGLE, DOUBLE, SINGLE]),
  ruby: hash([DOUBLE, SINGLE], { blockComments: [["=begin", "=end"]] }),
  elixir: hash([TRIPLE_DOUBLE, DOUBLE, SINGLE]),
  julia: hash([TRIPLE_DOUBLE, DOUBLE], { blockComments: [["#=", "=#"]], hasCharLiterals: true }),
  r: hash([DOUBLE, SINGLE]),
  shell: hash([DOUBLE, { open: "'", close: "'", hasEscapes: false }], { isHashCommentWordStart: true }),
  perl: hash([DOUBLE, SINGLE], { isHashCommentWordStart: true }),
  racket: {
    family: "lisp",
    lineComments: [";"],
    blockComments: [["#|", "|#"]],
    isHashCommentWordStart: false,
    strings: [DOUBLE],
    hasCharLiterals: false,
  },
};

/** The tokenizer family a language belongs to. */
export function familyOf(language: Language): Family {
  return SYNTAX[language].family;
}

const isWordChar = (char: string) => /[A-Za-z0-9_$]/.test(char) || char > "\u007f";
const isLispDelimiter = (char: string) => /[\s()[\]{}",'`;]/.test(char);

/** Where a string that opens at `start` ends (exclusive); the source's end when it never closes. */
function stringEnd(source: string, start: number, form: StringForm): number {
  let index = start + form.open.length;
  while (index < source.length) {
    if (form.hasEscapes && source[index] === "\\") {
      index += 2;
      continue;
    }
    if (source.startsWith(form.close, index)) return index + form.close.length;
    index++;
  }
  return source.length;
}

/** Splits a source into tokens; concatenating their texts gives the source back. */
export function tokenize(source: string, language: Language): Token[] {
  const syntax = SYNTAX[language];
  const tokens: Token[] = [];
  let index = 0;
  let line = 1;
  let lineStart = 0;

  const push = (kind: TokenKind, end: number) => {
    const text = source.slice(index, end);
    tokens.push({ kind, text, start: index, line, column: index - lineStart + 1 });
    for (let at = index; at < end; at++) {
      if (source[at] === "\n") {
        line++;
        lineStart = at + 1;
      }
    }
    index = end;
  };

  while (index < source.length) {
    const char = source[index];
    const rest = (text: string) => source.startsWith(text, index);

    if (char === "\n") {
      push("newline", index + 1);
      continue;
    }
    if (/\s/.test(char)) {
      let end = index + 1;
      while (end < source.length && source[end] !== "\n" && /\s/.test(source[end])) end++;
      push("space", end);
      continue;
    }

    const block = syntax.blockComments.find(([open]) => rest(open));
    if (block) {
      const close = source.indexOf(block[1], index + block[0].length);
      push("comment", close === -1 ? source.length : close + block[1].length);
      continue;
    }
    const lineComment = syntax.lineComments.find((open) => rest(open));
    const previous = source[index - 1];
    const isCommentStart =
      lineComment !== undefined &&
      !(
        lineComment === "#" &&
        syntax.isHashCommentWordStart &&
        index > 0 &&
        previous !== undefined &&
        !/[\s;]/.test(previous)
      );
    if (lineComment && isCommentStart) {
      const newline = source.indexOf("\n", index);
      push("comment", newline === -1 ? source.length : newline);
      continue;
    }

    const form = syntax.strings.find((candidate) => rest(candidate.open));
    if (form) {
      push("string", stringEnd(source, index, form));
      continue;
    }
    if (syntax.hasCharLiterals && char === "'") {
      const literal = /^'(?:\\[^']{1,10}|[^\\'\n])'/.exec(source.slice(index, index + 14));
      push(literal ? "string" : "punct", index + (literal ? literal[0].length : 1));
      continue;
    }

    if (syntax.family === "lisp") {
      if (rest("#\\")) {
        let end = index + 3;
        while (end < source.length && !isLispDelimiter(source[end])) end++;
        push("string", end);
        continue;
      }
      if (PUNCT_CHARS.has(char) || char === "'" || char === "`" || char === ",") {
        push("punct", index + 1);
        continue;
      }
      let end = index + 1;
      while (end < source.length && !isLispDelimiter(source[end])) end++;
      push(/^[+-]?\d+(\.\d+)?$/.test(source.slice(index, end)) ? "number" : "word", end);
      continue;
    }

    if (/[0-9]/.test(char)) {
      const number = /^\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?[A-Za-z0-9_]*/.exec(source.slice(index, index + 80));
      push("number", index + number![0].length);
      continue;
    }
    if (isWordChar(char)) {
      let end = index + 1;
      while (end < source.length && isWordChar(source[end])) end++;
      push("word", end);
      continue;
    }
    if (PUNCT_CHARS.has(char)) {
      push("punct", index + 1);
      continue;
    }
    const operator = OPERATORS.find((candidate) => rest(candidate));
    if (operator) {
      push("operator", index + operator.length);
      continue;
    }
    push(OPERATOR_CHARS.has(char) ? "operator" : "punct", index + 1);
  }
  return tokens;
}
