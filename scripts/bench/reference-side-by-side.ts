// Side-by-side benchmark (issue 22): the same shared-corpus cases through the local sandbox and
// through the reference sandbox server (AutoCodeBench's MultiLanguageSandbox, reached through
// Verity's acb backend), language by language, one right after the other so both see the same load.
// Prints per language: wall time each way, the ratio, how many outcomes are identical, and how many
// agree with the recorded reference outcome. No database. Writes docs/benchmarks.md.
//
//   npm run bench:reference -- --url http://127.0.0.1:8080 [--languages ruby,php] [--cases 34]
//                              [--concurrency 2] [--dir ../shared/conformance/sandbox-cases] [--no-write] [--json]
//
// The reference server is not part of Verity: docs/benchmarks.md ("Side by side with the reference
// server") says how it was run. When nothing answers at --url the script says so and exits 0.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";

import { createAcbBackend } from "@/lib/server/sandbox/acb";
import { CONFORMANCE_TIMEOUT_MS, readConformanceCases, type ConformanceCase } from "@/lib/server/sandbox/conformance";
import { createLocalBackend } from "@/lib/server/sandbox/local";
import type { Outcome, SandboxBackend, SandboxLanguage } from "@/lib/server/sandbox/types";

import { BENCH_OPTIONS, describeMachine, machineLine, startBenchRun, uptime, writeBenchmarkSubsection } from "./common";

const { values: options } = parseArgs({
  options: {
    url: { type: "string", default: process.env.VERITY_REFERENCE_URL ?? "http://127.0.0.1:8080" },
    /** Comma-separated; default: every corpus language with a local toolchain. */
    languages: { type: "string" },
    /** Cases per language (the corpus has 34). */
    cases: { type: "string", default: "34" },
    concurrency: { type: "string", default: "2" },
    dir: { type: "string" },
    timeout: { type: "string", default: String(CONFORMANCE_TIMEOUT_MS) },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:reference", options);

const PARENT = "## Sandbox toolchains (issue 22)";
const HEADING = "### Side by side with the reference server";
const CONCURRENCY = Number(options.concurrency);
const CASES_PER_LANGUAGE = Number(options.cases);
const TIMEOUT_MS = Number(options.timeout);
const URL_BASE = options.url.replace(/\/+$/, "");
const CORPUS =
  options.dir ??
  ["../shared/conformance/sandbox-cases", "../../shared/conformance/sandbox-cases"]
    .map((path) => resolve(path))
    .find((path) => existsSync(path));

type Side = { wallMs: number; caseMs: number; outcomes: Map<string, Outcome> };

/** Whether the reference server answers at all: a body without fields gets its ARGUMENT_ERROR. */
async function referenceAnswers(): Promise<string | null> {
  try {
    const response = await fetch(`${URL_BASE}/submit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
      signal: AbortSignal.timeout(5_000),
    });
    const body = (await response.json()) as { exec_outcome?: string };
    return body.exec_outcome ? null : `answered without exec_outcome (HTTP ${response.status})`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Runs the cases CONCURRENCY at a time; wall time of the whole set and the sum of case times. */
async function runSide(backend: SandboxBackend, cases: readonly ConformanceCase[]): Promise<Side> {
  const outcomes = new Map<string, Outcome>();
  let caseMs = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, cases.length) }, async () => {
      while (next < cases.length) {
        const item = cases[next++];
        const caseStarted = performance.now();
        try {
          const result = await backend.run({
            language: item.language,
            solution: item.solution,
            test: item.test,
            timeoutMs: TIMEOUT_MS,
          });
          outcomes.set(item.id, result.outcome);
        } catch {
          outcomes.set(item.id, "INTERNAL_ERROR");
        }
        caseMs += performance.now() - caseStarted;
      }
    }),
  );
  return { wallMs: performance.now() - started, caseMs, outcomes };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

if (!CORPUS) {
  console.error("No corpus: pass --dir <folder of <language>.jsonl files> (../shared/conformance/sandbox-cases).");
  process.exit(1);
}
const unreachable = await referenceAnswers();
if (unreachable) {
  console.log(
    `Skipped: this benchmark needs the reference server at ${URL_BASE} (AutoCodeBench's MultiLanguageSandbox; ` +
      `docs/benchmarks.md, "Side by side with the reference server", says how to run it) — ${unreachable}.`,
  );
  benchRun.finish({ skipped: unreachable });
  process.exit(0);
}

const local = createLocalBackend({ isUnsafe: false, concurrency: CONCURRENCY, memoryLimitMb: 1024, workDir: null });
// The acb client's own request slack is generous; the reference's per-step limits decide.
const reference = createAcbBackend({ url: URL_BASE });

const all = await readConformanceCases(CORPUS);
const corpusLanguages = [...new Set(all.map((item) => item.language))];
const languages = options.languages
  ? (options.languages.split(",") as SandboxLanguage[])
  : (
      await Promise.all(
        corpusLanguages.map(async (language) => ((await local.toolchain(language)).isFound ? language : null)),
      )
    ).filter((language): language is SandboxLanguage => language !== null);

const machine = machineLine(describeMachine("—"));
const rows: string[] = [];
const totals = { local: 0, reference: 0, cases: 0, identical: 0, localAgree: 0, referenceAgree: 0 };
for (const language of languages) {
  const cases = all.filter((item) => item.language === language).slice(0, CASES_PER_LANGUAGE);
  // One untimed run each way first: the local backend's isolation and toolchain probes and the
  // server's first request per worker are start-up costs, not per-case ones.
  await runSide(local, cases.slice(0, 1));
  await runSide(reference, cases.slice(0, CONCURRENCY));
  const loadBefore = uptime().replace(/^.*load average: /, "");
  const localSide = await runSide(local, cases);
  const referenceSide = await runSide(reference, cases);
  const loadAfter = uptime().replace(/^.*load average: /, "");
  const identical = cases.filter((item) => localSide.outcomes.get(item.id) === referenceSide.outcomes.get(item.id));
  const agree = (side: Side) => cases.filter((item) => side.outcomes.get(item.id) === item.reference_outcome).length;
  const differing = cases
    .filter((item) => !identical.includes(item))
    .map((item) => `${item.id}: ${localSide.outcomes.get(item.id)} here, ${referenceSide.outcomes.get(item.id)} there`);
  totals.local += localSide.wallMs;
  totals.reference += referenceSide.wallMs;
  totals.cases += cases.length;
  totals.identical += identical.length;
  totals.localAgree += agree(localSide);
  totals.referenceAgree += agree(referenceSide);
  rows.push(
    `| ${language} | ${cases.length} | ${seconds(localSide.wallMs)} | ${seconds(referenceSide.wallMs)} | ` +
      `**${(referenceSide.wallMs / localSide.wallMs).toFixed(2)}** | ${(referenceSide.caseMs / localSide.caseMs).toFixed(2)} | ` +
      `${identical.length}/${cases.length} | ${agree(localSide)} / ${agree(referenceSide)} | ${loadBefore} → ${loadAfter} |`,
  );
  console.log(rows.at(-1));
  for (const line of differing) console.log(`  differs: ${line}`);
}

const section = `${HEADING}

\`npm run bench:reference -- --url ${URL_BASE}\`: per language the corpus's cases at concurrency
${CONCURRENCY} through the local sandbox, then right after through the reference server (Verity's acb
backend, the same ${TIMEOUT_MS / 1000} s base limit). Ratio = reference ÷ local (above 1: faster here);
"case" is the ratio of the summed per-case times. ${machine}

| language | cases | local wall | reference wall | ratio (wall) | ratio (case) | identical outcomes | agree with recorded (local / reference) | load (1, 5, 15 min) before → after |
|---|---:|---:|---:|---:|---:|---:|---:|---|
${rows.join("\n")}
| **all** | ${totals.cases} | ${seconds(totals.local)} | ${seconds(totals.reference)} | **${(totals.reference / totals.local).toFixed(2)}** | | ${totals.identical}/${totals.cases} | ${totals.localAgree} / ${totals.referenceAgree} | |
`;
if (!options["no-write"] && rows.length) writeBenchmarkSubsection(PARENT, HEADING, section);
console.log(section);
benchRun.finish({
  cases: totals.cases,
  identical: totals.identical,
  referenceOverLocal: totals.local ? Number((totals.reference / totals.local).toFixed(2)) : null,
});
