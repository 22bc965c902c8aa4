// The demo dataset is data (demo.jsonl plus manifest.json); this checks it against the real
// sandbox. Each record's canonical solution runs against its demo and its full tests, and the
// outcome must be what the manifest says: "pass" (both PASSED), "fail" (at least one did not
// pass: the record's flaw shows when run) or "any" (environment-dependent; only recorded).
import { readFileSync } from "node:fs";

import { beforeAll, describe, expect, it } from "vitest";

import { parseCritic } from "@/lib/records/critic";
import { normalizeLanguage, type Language } from "@/lib/records/languages";
import { createLocalBackend } from "@/lib/server/sandbox/local";
import type { Outcome } from "@/lib/server/sandbox/types";
import { NO_LOCAL_TOOLCHAIN, skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

type DemoRecord = { language: string; canonical_solution: string; demo_test_func: string; full_test_func: string; critic?: unknown; critic_result?: unknown; critic_reasoning?: unknown };
type ManifestEntry = { line: number; language: string; title: string; valid: boolean; criticAgrees: boolean; expectedExecution: "pass" | "fail" | "any" };

const records = readFileSync(new URL("./demo.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as DemoRecord);
const manifest = (JSON.parse(readFileSync(new URL("./manifest.json", import.meta.url), "utf8")) as { records: ManifestEntry[] }).records;

const backend = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();
const languages = [...new Set(records.map((record) => normalizeLanguage(record.language)!))];
const toolchains = new Map(await Promise.all(languages.map(async (language) => [language, await backend.toolchain(language)] as const)));

/** Why `language` cannot run here (null when it can). */
function whyNot(language: Language): string | null {
  if (status.problem) return status.problem;
  const toolchain = toolchains.get(language)!;
  if (toolchain.isFound) return null;
  const route = NO_LOCAL_TOOLCHAIN.has(language) ? "no toolchain package; route it to acb" : "run npm run sandbox:install";
  return `toolchain not installed (${toolchain.missing.join(", ")}); ${route}`;
}

const cases = manifest.map((entry) => {
  const record = records[entry.line - 1];
  const language = normalizeLanguage(record.language)!;
  const reason = whyNot(language);
  return { entry, record, language, reason, isSkipped: skipWithoutSandbox(reason, status.problem ? undefined : language) };
});

// Every record runs once, two at a time (the backend's own limit), before the checks read the results.
const outcomes = new Map<number, { demo: Outcome; full: Outcome; detail: string }>();
beforeAll(async () => {
  await Promise.all(
    cases
      .filter((item) => !item.isSkipped)
      .map(async ({ entry, record, language }) => {
        const run = (test: string) => backend.run({ language, solution: record.canonical_solution, test, timeoutMs: 60_000 });
        const [demo, full] = await Promise.all([run(record.demo_test_func), run(record.full_test_func)]);
        const detail = [demo, full].map((result) => `${result.outcome}\n${result.compileOutput ?? ""}${result.stdout}${result.stderr}`.slice(0, 2000)).join("\n---\n");
        outcomes.set(entry.line, { demo: demo.outcome, full: full.outcome, detail });
      }),
  );
}, 900_000);

describe("demo dataset", () => {
  it("has one manifest entry per record, in the same languages", () => {
    expect(manifest.map((entry) => entry.line)).toEqual(records.map((_, index) => index + 1));
    expect(manifest.map((entry) => normalizeLanguage(entry.language))).toEqual(records.map((record) => normalizeLanguage(record.language)));
    for (const entry of manifest) expect(["pass", "fail", "any"], `line ${entry.line}`).toContain(entry.expectedExecution);
  });

  it("says rightly whether each embedded critic verdict agrees with the record's validity", () => {
    for (const entry of manifest) {
      const record = records[entry.line - 1];
      const verdict = parseCritic({ critic: record.critic, criticResult: record.critic_result, criticReasoning: record.critic_reasoning });
      expect(verdict?.overallPass === entry.valid, `line ${entry.line} ${entry.title}`).toBe(entry.criticAgrees);
    }
  });

  for (const { entry, language, reason, isSkipped } of cases) {
    const name = `${entry.line} ${language} ${entry.title}: ${entry.expectedExecution}${isSkipped ? ` (skipped: ${reason})` : ""}`;
    it.skipIf(isSkipped)(name, () => {
      const outcome = outcomes.get(entry.line)!;
      const passedBoth = outcome.demo === "PASSED" && outcome.full === "PASSED";
      if (entry.expectedExecution === "pass") expect(passedBoth, outcome.detail).toBe(true);
      if (entry.expectedExecution === "fail") expect(passedBoth, outcome.detail).toBe(false);
    });
  }
});
