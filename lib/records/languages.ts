/** Every language an AutoCodeBench record may be written in, in the order the benchmark lists them. */
export const LANGUAGES = [
  "python",
  "cpp",
  "java",
  "javascript",
  "go",
  "shell",
  "csharp",
  "dart",
  "elixir",
  "julia",
  "kotlin",
  "perl",
  "php",
  "racket",
  "r",
  "ruby",
  "rust",
  "scala",
  "swift",
  "typescript",
] as const;

/** One of the canonical language ids in {@link LANGUAGES}. */
export type Language = (typeof LANGUAGES)[number];

const LANGUAGE_SET: ReadonlySet<string> = new Set(LANGUAGES);

// Spellings generators and people actually use; the canonical ids win over these.
const ALIASES: Readonly<Record<string, Language>> = {
  "c++": "cpp",
  py: "python",
  js: "javascript",
  ts: "typescript",
  golang: "go",
  rs: "rust",
  bash: "shell",
  sh: "shell",
  cs: "csharp",
  "c#": "csharp",
};

/** Maps a language name or alias (any case, surrounding spaces allowed) to its canonical id, or null. */
export function normalizeLanguage(input: string): Language | null {
  if (typeof input !== "string") return null;
  const key = input.trim().toLowerCase();
  if (isLanguage(key)) return key;
  return Object.hasOwn(ALIASES, key) ? ALIASES[key] : null;
}

/** Type guard for a string that is already a canonical language id. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && LANGUAGE_SET.has(value);
}

/**
 * A stored language as the `Language` type. Imports accept only canonical ids, so anything else in
 * the database is a broken invariant, not user input: it throws rather than guessing.
 */
export function parseLanguage(value: string): Language {
  if (!isLanguage(value)) throw new Error(`"${value}" is not a language Verity knows`);
  return value;
}

/** A language's display name ("C++" for cpp); an unknown id is shown as it is. */
export function languageName(language: string): string {
  return isLanguage(language) ? LANGUAGE_LABELS[language] : language;
}

/** The Monaco mode for a language; plain text for an unknown id. */
export function monacoLanguageOf(language: string): string {
  return isLanguage(language) ? MONACO_LANGUAGE[language] : "plaintext";
}

/** Display names for the UI and reports. */
export const LANGUAGE_LABELS: Record<Language, string> = {
  python: "Python",
  cpp: "C++",
  java: "Java",
  javascript: "JavaScript",
  go: "Go",
  shell: "Shell",
  csharp: "C#",
  dart: "Dart",
  elixir: "Elixir",
  julia: "Julia",
  kotlin: "Kotlin",
  perl: "Perl",
  php: "PHP",
  racket: "Racket",
  r: "R",
  ruby: "Ruby",
  rust: "Rust",
  scala: "Scala",
  swift: "Swift",
  typescript: "TypeScript",
};

/** Monaco editor language ids; Monaco has no Racket mode, so Racket borrows Scheme's highlighting. */
export const MONACO_LANGUAGE: Record<Language, string> = {
  python: "python",
  cpp: "cpp",
  java: "java",
  javascript: "javascript",
  go: "go",
  shell: "shell",
  csharp: "csharp",
  dart: "dart",
  elixir: "elixir",
  julia: "julia",
  kotlin: "kotlin",
  perl: "perl",
  php: "php",
  racket: "scheme",
  r: "r",
  ruby: "ruby",
  rust: "rust",
  scala: "scala",
  swift: "swift",
  typescript: "typescript",
};
