// Counts in the app's sentences take their noun through countOf: a count written straight before a
// plural noun ("${n} records", "{n} records" in JSX) reads "1 records" when n is 1. This reads the
// source of the app, its components, lib and the CLI for such a count, so a new one cannot slip in.
// The benchmarks (scripts/bench) are left out: they describe runs of fixed, large sizes.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const FOLDERS = ["app", "components", "lib", "scripts"];

const NOUNS = [
  "records",
  "lines",
  "bad lines",
  "labels",
  "items",
  "runs",
  "campaigns",
  "annotators",
  "languages",
  "mutants",
  "solutions",
  "models",
  "revisions",
  "categories",
  "comments",
  "rows",
  "tables",
  "tests",
  "tokens",
  "replies",
  "records tasks",
  "record tasks",
  "jobs",
  "workers",
  "imports",
  "folders",
  "files",
];

// `${expression} noun` in a template, or `{expression} noun` between JSX tags; the expression may
// hold one level of brackets (`${n.toLocaleString("en")} records`).
const COUNT_THEN_NOUN = new RegExp(String.raw`(?<!=)\$?\{((?:[^{}]|\{[^{}]*\})+)\}\s(?:${NOUNS.join("|")})\b`, "g");
// "word(s)": a count that would not choose its noun's number.
const MAYBE_PLURAL = /\b[a-z]+\(s\)/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter(
      (file) =>
        /\.tsx?$/.test(file) &&
        !file.endsWith(".test.ts") &&
        !file.includes("generated") &&
        !file.startsWith("bench") &&
        !file.includes("node_modules"),
    )
    .map((file) => join(folder, file));
}

/** A count that is a number written in the source (`{2} runs`) is always plural: not a slip. */
const isLiteralPlural = (expression: string) => /^\s*\d+\s*$/.test(expression) && Number(expression) !== 1;

/** A table's column, padded to line up under a heading ("    12 records  "), names its unit once. */
const isColumn = (expression: string) => expression.includes(".padStart(");

// Matches that are no count before a noun, or whose count is never 1 where it is written.
const NOT_SLIPS = new Set([
  // The branch for more than one (the singular sentence is the other branch).
  'lib/campaigns/with-others.ts: ${items.toLocaleString("en")} items',
  "components/comments/answered-threads.tsx: ${threads.length} items",
  // "runs" the verb: "java-main runs Java".
  "lib/records/harness.ts: ${profile} runs",
  "scripts/commands/harness.ts: ${language} runs",
  // The progress bar's own placeholder and a help text's JSON.
  "scripts/commands/import.ts: {lines} lines",
  'scripts/commands/solutions.ts: {"key", "model", "code"|"output"} lines',
]);

function slips(): string[] {
  return FOLDERS.flatMap(sourceFiles).flatMap((file) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    return text.split("\n").flatMap((line, index) => {
      // Comments (and doc comments) may show what a sentence looks like.
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return [];
      const found = [
        ...[...line.matchAll(COUNT_THEN_NOUN)]
          .filter((match) => !isLiteralPlural(match[1]) && !isColumn(match[1]))
          .map((match) => match[0])
          .filter((match) => !NOT_SLIPS.has(`${file}: ${match}`)),
        ...[...line.matchAll(MAYBE_PLURAL)]
          .filter((match) => !/https?\(s\)|cgroup\(s\)/.test(match[0]))
          .map((m) => m[0]),
      ];
      return found.map((match) => `${file}:${index + 1}: ${match}`);
    });
  });
}

describe("counts in sentences", () => {
  it("finds the pattern it looks for", () => {
    const sample = "const a = `${n} records`; <p>{items.length} items</p>";
    expect([...sample.matchAll(COUNT_THEN_NOUN)].map((match) => match[0])).toEqual([
      "${n} records",
      "{items.length} items",
    ]);
  });

  it("take their noun's number through countOf everywhere (no '1 records', no 'line(s)')", () => {
    expect(slips()).toEqual([]);
  });
});
