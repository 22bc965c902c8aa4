import { describe, expect, it } from "vitest";
import {
  LANGUAGE_LABELS,
  LANGUAGES,
  MONACO_LANGUAGE,
  isLanguage,
  languageName,
  monacoLanguageOf,
  normalizeLanguage,
  parseLanguage,
} from "./languages";

describe("normalizeLanguage", () => {
  it("accepts every canonical id as is", () => {
    for (const language of LANGUAGES) expect(normalizeLanguage(language)).toBe(language);
  });

  it("ignores case and surrounding whitespace", () => {
    expect(normalizeLanguage("  Python\n")).toBe("python");
    expect(normalizeLanguage("TypeScript")).toBe("typescript");
    expect(normalizeLanguage("R")).toBe("r");
  });

  it.each([
    ["c++", "cpp"],
    ["C++", "cpp"],
    ["py", "python"],
    ["js", "javascript"],
    ["ts", "typescript"],
    ["golang", "go"],
    ["rs", "rust"],
    ["bash", "shell"],
    ["sh", "shell"],
    ["cs", "csharp"],
    ["C#", "csharp"],
  ])("maps the alias %s to %s", (alias, language) => {
    expect(normalizeLanguage(alias)).toBe(language);
  });

  it("rejects unknown names and inherited object keys", () => {
    expect(normalizeLanguage("cobol")).toBeNull();
    expect(normalizeLanguage("")).toBeNull();
    expect(normalizeLanguage("c")).toBeNull();
    expect(normalizeLanguage("constructor")).toBeNull();
    expect(normalizeLanguage("toString")).toBeNull();
  });
});

describe("language tables", () => {
  it("has twenty languages with a label and a Monaco id each", () => {
    expect(LANGUAGES).toHaveLength(20);
    expect(Object.keys(LANGUAGE_LABELS).sort()).toEqual([...LANGUAGES].sort());
    expect(Object.keys(MONACO_LANGUAGE).sort()).toEqual([...LANGUAGES].sort());
  });

  it("uses the conventional display names", () => {
    expect(LANGUAGE_LABELS.cpp).toBe("C++");
    expect(LANGUAGE_LABELS.csharp).toBe("C#");
    expect(LANGUAGE_LABELS.javascript).toBe("JavaScript");
    expect(LANGUAGE_LABELS.typescript).toBe("TypeScript");
    expect(LANGUAGE_LABELS.shell).toBe("Shell");
    expect(LANGUAGE_LABELS.r).toBe("R");
    expect(LANGUAGE_LABELS.php).toBe("PHP");
  });

  it("highlights Racket as Scheme and the rest under their own id", () => {
    expect(MONACO_LANGUAGE.racket).toBe("scheme");
    for (const language of LANGUAGES.filter((l) => l !== "racket")) {
      expect(MONACO_LANGUAGE[language]).toBe(language);
    }
  });

  it("isLanguage accepts only canonical ids", () => {
    expect(isLanguage("cpp")).toBe(true);
    expect(isLanguage("c++")).toBe(false);
    expect(isLanguage(3)).toBe(false);
  });

  it("parseLanguage gives the type to a stored id and refuses anything else", () => {
    expect(parseLanguage("rust")).toBe("rust");
    expect(() => parseLanguage("Rust")).toThrow(/not a language/);
  });

  it("names and Monaco modes fall back for unknown ids instead of failing a page", () => {
    expect(languageName("cpp")).toBe("C++");
    expect(languageName("cobol")).toBe("cobol");
    expect(monacoLanguageOf("racket")).toBe("scheme");
    expect(monacoLanguageOf("cobol")).toBe("plaintext");
  });
});
