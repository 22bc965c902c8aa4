import "server-only";

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import { LANGUAGES } from "@/lib/records/languages";

import {
  OUTCOMES,
  type LanguageAvailability,
  type Outcome,
  type RunRequest,
  type SandboxLanguage,
  type SandboxResult,
} from "./types";

const caseSchema = z.object({
  id: z.string().min(1),
  language: z.enum(LANGUAGES),
  solution: z.string(),
  test: z.string(),
  reference_outcome: z.enum(OUTCOMES),
});

export type ConformanceCase = z.infer<typeof caseSchema>;

type Mismatch = { id: string; expected: Outcome; got: Outcome; stderrHead: string };

export type CaseResult = { id: string; expected: Outcome; got: Outcome; stderrHead: string };

export type LanguageConformance = {
  language: SandboxLanguage;
  cases: number;
  ran: number;
  /** Share of ran cases agreeing on PASSED vs not PASSED; null when none ran. */
  passAgreement: number | null;
  /** Share of ran cases with the same outcome name; null when none ran. */
  exactAgreement: number | null;
  /** Why the language did not run; null when it did. */
  unavailable: string | null;
  mismatches: Mismatch[];
};

export type ConformanceReport = { languages: Partial<Record<SandboxLanguage, LanguageConformance>> };

type ConformanceProgress = { language: SandboxLanguage; done: number; total: number; caseId: string };

export type ConformanceOptions = {
  dir: string;
  language?: SandboxLanguage;
  run: (request: RunRequest) => Promise<SandboxResult>;
  availability: (language: SandboxLanguage) => Promise<LanguageAvailability>;
  onProgress?: (progress: ConformanceProgress) => void;
  /** Cases in flight at once; the backend applies its own limit too. */
  concurrency?: number;
  /** Base timeout per step; default CONFORMANCE_TIMEOUT_MS. */
  timeoutMs?: number;
};

/**
 * The reference's evaluation tools ask its sandbox for 30 s per run (its server's own default is
 * 5 s); the recorded outcomes were made that way, so conformance uses the same limit. A shorter one
 * turns slow-but-passing cases (a Rust build, a heavy Racket test) into TIME_LIMIT_EXCEEDED.
 */
export const CONFORMANCE_TIMEOUT_MS = 30_000;

const STDERR_HEAD_CHARS = 300;

/** Parses one JSONL file of cases; throws naming the file and line of the first bad one. */
export function parseConformanceLines(text: string, source: string): ConformanceCase[] {
  const cases: ConformanceCase[] = [];
  text.split("\n").forEach((line, index) => {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new Error(`${source}:${index + 1}: not JSON (${(error as Error).message})`);
    }
    const parsed = caseSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${source}:${index + 1}: ${issue?.path.join(".")}: ${issue?.message}`);
    }
    cases.push(parsed.data);
  });
  return cases;
}

/** Reads every case of DIR/*.jsonl, optionally of one language. */
export async function readConformanceCases(dir: string, language?: SandboxLanguage): Promise<ConformanceCase[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith(".jsonl")).sort();
  const cases: ConformanceCase[] = [];
  for (const file of files) {
    const path = join(dir, file);
    cases.push(...parseConformanceLines(await readFile(path, "utf8"), path));
  }
  return language ? cases.filter((item) => item.language === language) : cases;
}

/** Agreement figures of one language from its case results (pure). */
export function summarizeLanguage(
  language: SandboxLanguage,
  cases: number,
  results: readonly CaseResult[],
  unavailable: string | null,
): LanguageConformance {
  const ran = results.length;
  const passAgreeing = results.filter((item) => (item.expected === "PASSED") === (item.got === "PASSED")).length;
  const exactAgreeing = results.filter((item) => item.expected === item.got).length;
  return {
    language,
    cases,
    ran,
    passAgreement: ran ? passAgreeing / ran : null,
    exactAgreement: ran ? exactAgreeing / ran : null,
    unavailable,
    mismatches: results.filter((item) => item.expected !== item.got),
  };
}

function headOf(result: SandboxResult): string {
  const text = result.stderr.trim() || (result.compileOutput ?? "").trim() || result.stdout.trim();
  return text.slice(0, STDERR_HEAD_CHARS);
}

async function runPool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      await task(item);
    }
  });
  await Promise.all(workers);
}

/** Runs every case of DIR/*.jsonl and reports agreement with the reference outcome per language. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const all = await readConformanceCases(options.dir, options.language);
  const byLanguage = new Map<SandboxLanguage, ConformanceCase[]>();
  for (const item of all) byLanguage.set(item.language, [...(byLanguage.get(item.language) ?? []), item]);

  const report: ConformanceReport = { languages: {} };
  for (const language of LANGUAGES) {
    const cases = byLanguage.get(language);
    if (!cases) continue;
    const availability = await options.availability(language);
    if (!availability.available) {
      report.languages[language] = summarizeLanguage(language, cases.length, [], availability.reason ?? "unavailable");
      continue;
    }
    const results: CaseResult[] = [];
    let done = 0;
    await runPool(cases, options.concurrency ?? 2, async (item) => {
      let got: Outcome;
      let stderrHead: string;
      try {
        const result = await options.run({
          language,
          solution: item.solution,
          test: item.test,
          timeoutMs: options.timeoutMs ?? CONFORMANCE_TIMEOUT_MS,
        });
        got = result.outcome;
        stderrHead = headOf(result);
      } catch (error) {
        got = "INTERNAL_ERROR";
        stderrHead = (error as Error).message.slice(0, STDERR_HEAD_CHARS);
      }
      results.push({ id: item.id, expected: item.reference_outcome, got, stderrHead });
      done++;
      options.onProgress?.({ language, done, total: cases.length, caseId: item.id });
    });
    // Keep the file order so reports are stable between runs.
    const order = new Map(cases.map((item, index) => [item.id, index]));
    results.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    report.languages[language] = summarizeLanguage(language, cases.length, results, null);
  }
  return report;
}
