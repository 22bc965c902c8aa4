// The demo dataset is data (demo.jsonl plus manifest.json); this checks it against the real
// sandbox. Each record's canonical solution runs against its demo and its full tests, and the
// outcome must be what the manifest says: "pass" (both PASSED), "fail" (at least one did not
// pass: the record's flaw shows when run) or "any" (environment-dependent; only recorded). Records
// whose manifest entry names `expectedEvidence` also get the evidence workers' checks with their
// defaults: a mutation score on the right side of the weak-tests threshold, a flaky verdict.
import { readFileSync } from "node:fs";

import { beforeAll, describe, expect, it } from "vitest";

import { DEFAULT_REPEAT, flakyVerdict } from "@/lib/evidence/flaky";
import { DEFAULT_MUTANTS } from "@/lib/evidence/mutation";
import { WEAK_TESTS_THRESHOLD } from "@/lib/evidence/suspicion";
import { parseCritic } from "@/lib/records/critic";
import { recordKey } from "@/lib/records/hash";
import { normalizeLanguage, type Language } from "@/lib/records/languages";
import type { MutationResult } from "@/lib/server/evidence/batches";
import { analyseMutants, type MutantWays, repeatTests, type RunFunction } from "@/lib/server/evidence/jobs";
import { createLocalBackend } from "@/lib/server/sandbox/local";
import type { Outcome } from "@/lib/server/sandbox/types";
import { NO_LOCAL_TOOLCHAIN, skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { readDemoManifest } from "./manifest";

type DemoRecord = {
  question: string;
  language: string;
  canonical_solution: string;
  demo_test_func: string;
  full_test_func: string;
  critic?: unknown;
  critic_result?: unknown;
  critic_reasoning?: unknown;
};

const records = readFileSync(new URL("./demo.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as DemoRecord);
const manifest = readDemoManifest();
const solutions = readFileSync(new URL("./solutions.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { key: string; model: string });

const backend = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();
const languages = [...new Set(records.map((record) => normalizeLanguage(record.language)!))];
const toolchains = new Map(
  await Promise.all(languages.map(async (language) => [language, await backend.toolchain(language)] as const)),
);
const run: RunFunction = (request, options) => backend.run({ ...request, timeoutMs: 60_000 }, options);
const ways: MutantWays = {
  run,
  runSwitched: (request, variables, options) => backend.runSwitched({ ...request, timeoutMs: 60_000 }, variables, options),
};

/** Why `language` cannot run here (null when it can). */
function whyNot(language: Language): string | null {
  if (status.problem) return status.problem;
  const toolchain = toolchains.get(language)!;
  if (toolchain.isFound) return null;
  const route = NO_LOCAL_TOOLCHAIN.has(language)
    ? "no toolchain package; route it to acb"
    : "run npm run sandbox:install";
  return `toolchain not installed (${toolchain.missing.join(", ")}); ${route}`;
}

const cases = manifest.map((entry) => {
  const record = records[entry.line - 1];
  const language = normalizeLanguage(record.language)!;
  const reason = whyNot(language);
  return {
    entry,
    record,
    language,
    reason,
    isSkipped: skipWithoutSandbox(reason, status.problem ? undefined : language),
  };
});

// Every record runs once, two at a time (the backend's own limit), before the checks read the results.
const outcomes = new Map<number, { demo: Outcome; full: Outcome; detail: string }>();
beforeAll(async () => {
  await Promise.all(
    cases
      .filter((item) => !item.isSkipped)
      .map(async ({ entry, record, language }) => {
        const runTest = (test: string) =>
          backend.run({ language, solution: record.canonical_solution, test, timeoutMs: 60_000 });
        const [demo, full] = await Promise.all([runTest(record.demo_test_func), runTest(record.full_test_func)]);
        const detail = [demo, full]
          .map((result) =>
            `${result.outcome}\n${result.compileOutput ?? ""}${result.stdout}${result.stderr}`.slice(0, 2000),
          )
          .join("\n---\n");
        outcomes.set(entry.line, { demo: demo.outcome, full: full.outcome, detail });
      }),
  );
}, 900_000);

describe("demo dataset", () => {
  it("has one manifest entry per record, in the same languages", () => {
    expect(manifest.map((entry) => entry.line)).toEqual(records.map((_, index) => index + 1));
    expect(manifest.map((entry) => normalizeLanguage(entry.language))).toEqual(
      records.map((record) => normalizeLanguage(record.language)),
    );
    for (const entry of manifest) {
      expect(["pass", "fail", "any"], `line ${entry.line}`).toContain(entry.expectedExecution);
      if (!entry.expectedEvidence) continue;
      expect(Object.keys(entry.expectedEvidence).sort(), `line ${entry.line}`).toEqual(["flaky", "mutation"]);
      expect(["weak", "strong", null], `line ${entry.line}`).toContain(entry.expectedEvidence.mutation);
      expect([true, false, null], `line ${entry.line}`).toContain(entry.expectedEvidence.flaky);
    }
  });

  it("says rightly whether each embedded critic verdict agrees with the record's validity", () => {
    for (const entry of manifest) {
      const record = records[entry.line - 1];
      const verdict = parseCritic({
        critic: record.critic,
        criticResult: record.critic_result,
        criticReasoning: record.critic_reasoning,
      });
      expect(verdict?.overallPass === entry.valid, `line ${entry.line} ${entry.title}`).toBe(entry.criticAgrees);
    }
  });

  it("ships solutions that name demo records by their content key, three models for every record", () => {
    const keys = records.map((record) =>
      recordKey({
        language: normalizeLanguage(record.language)!,
        question: record.question,
        canonicalSolution: record.canonical_solution,
        demoTestFunc: record.demo_test_func,
        fullTestFunc: record.full_test_func,
      }),
    );
    const known = new Set(keys);
    for (const solution of solutions) expect(known.has(solution.key), `${solution.model} ${solution.key}`).toBe(true);
    for (const [index, key] of keys.entries())
      expect(
        solutions
          .filter((solution) => solution.key === key)
          .map((solution) => solution.model)
          .sort(),
        `line ${index + 1}`,
      ).toEqual(["demo-careful", "demo-hasty", "demo-terse"]);
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

/**
 * How many flakiness checks of K runs a record expected to be flaky gets before the test fails. A
 * nondeterministic record can come out stable by chance: "Distinct words" has two tests that each
 * pass in half of the runs, independently, so its four DEMO/FULL pairs are equally likely and one
 * check of K = 3 runs sees the same pair three times with probability 4 × (1/4)³ = 1/16. Three
 * independent checks all missing happens with probability (1/16)³ = 1/4096, the false alarm rate of
 * this test. A record expected to be stable gets one check: any difference is a real one.
 */
const FLAKY_CHECKS = 3;

type Evidence = {
  mutation: MutationResult | null;
  flaky: { verdict: boolean | null; checks: string[][] } | null;
};

// The evidence checks run after the execution checks, again two runs at a time across records.
describe("demo dataset evidence", () => {
  const checked = cases.filter((item) => item.entry.expectedEvidence && !item.isSkipped);
  const evidence = new Map<number, Evidence>();

  beforeAll(async () => {
    const started = performance.now();
    await Promise.all(
      checked.map(async ({ entry, record, language }) => {
        const expected = entry.expectedEvidence!;
        const outcome = outcomes.get(entry.line);
        const probe = {
          id: entry.line,
          language,
          canonicalSolution: record.canonical_solution,
          demoTestFunc: record.demo_test_func,
          fullTestFunc: record.full_test_func,
          // Already run above: a canonical solution that passed both tests needs no second run.
          executableValid: outcome?.demo === "PASSED" && outcome.full === "PASSED" ? true : null,
        };
        const mutation = expected.mutation ? await analyseMutants(probe, DEFAULT_MUTANTS, ways) : null;
        let flaky: Evidence["flaky"] = null;
        if (expected.flaky !== null) {
          const checks: string[][] = [];
          let verdict: boolean | null = null;
          const limit = expected.flaky ? FLAKY_CHECKS : 1;
          while (checks.length < limit && verdict !== true) {
            const repeated = await repeatTests(probe, DEFAULT_REPEAT, run);
            checks.push(repeated);
            verdict = flakyVerdict(repeated);
          }
          flaky = { verdict, checks };
        }
        evidence.set(entry.line, { mutation, flaky });
      }),
    );
    const summary = [...evidence].map(([line, { mutation, flaky }]) => {
      const score = mutation && `mutation ${mutation.killed}/${mutation.viable} = ${mutation.score?.toFixed(3)}`;
      const stability =
        flaky && `flaky ${flaky.verdict} after ${flaky.checks.length} check(s) ${JSON.stringify(flaky.checks)}`;
      return `line ${line}: ${[score, stability].filter(Boolean).join("; ")}`;
    });
    console.log(
      `demo evidence: ${checked.length} records in ${Math.round(performance.now() - started)} ms\n${summary.join("\n")}`,
    );
  }, 900_000);

  for (const { entry, language, reason, isSkipped } of cases.filter((item) => item.entry.expectedEvidence)) {
    const { mutation, flaky } = entry.expectedEvidence!;
    const claims = [mutation && `${mutation} tests`, flaky !== null && (flaky ? "flaky" : "stable")]
      .filter(Boolean)
      .join(", ");
    const name = `${entry.line} ${language} ${entry.title}: ${claims}${isSkipped ? ` (skipped: ${reason})` : ""}`;
    it.skipIf(isSkipped)(name, () => {
      const found = evidence.get(entry.line)!;
      if (mutation) {
        const result = found.mutation!;
        const detail = JSON.stringify({
          notApplicable: result.notApplicable,
          mutants: result.mutants.map((mutant) => [mutant.after, mutant.demoOutcome, mutant.fullOutcome]),
        });
        expect(result.notApplicable, detail).toBeNull();
        // A score over a handful of viable mutants says little either way.
        expect(result.viable, detail).toBeGreaterThanOrEqual(5);
        if (mutation === "weak") expect(result.score!, detail).toBeLessThan(WEAK_TESTS_THRESHOLD);
        else expect(result.score!, detail).toBeGreaterThanOrEqual(WEAK_TESTS_THRESHOLD);
      }
      if (flaky !== null) expect(found.flaky!.verdict, JSON.stringify(found.flaky!.checks)).toBe(flaky);
    });
  }
});
