// Toolchain benchmark (issue 22): how long one record takes in the local sandbox with the reference
// image's toolchains (median of --runs runs, one at a time), per language; and for Rust, the same
// record built the reference's way — a Cargo project whose crates (rand, regex, md5) are rebuilt in
// every job — next to the sandbox's prebuilt crates. No database. Writes docs/benchmarks.md.
//
//   npm run bench:sandbox-toolchains [-- --runs 5 --languages rust,go --no-write]
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

import { createLocalBackend } from "@/lib/server/sandbox/local";
import { getRecipe } from "@/lib/server/sandbox/recipes";
import { RUST_CRATES_SOLUTION, RUST_CRATES_TEST } from "@/lib/server/sandbox/reference-cases";
import type { RunRequest, SandboxLanguage } from "@/lib/server/sandbox/types";

import {
  BENCH_OPTIONS,
  describeMachine,
  machineLine,
  percentile,
  startBenchRun,
  uptime,
  writeBenchmarkSection,
} from "./common";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    /** Comma-separated languages to time (default: rust, go, java, kotlin, scala). */
    languages: { type: "string", default: "rust,go,java,kotlin,scala" },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:sandbox-toolchains", options);
const RUNS = Number(options.runs);
const SECTION = "## Sandbox toolchains (issue 22)";
const TIMEOUT_MS = 60_000;

const backend = createLocalBackend({ isUnsafe: false, concurrency: 1, memoryLimitMb: 1024, workDir: null });

/** The recipe's hello record for each language, and the Rust record that uses the three crates. */
const LANGUAGES = options.languages.split(",") as SandboxLanguage[];
const ALL_CASES: { name: string; request: RunRequest }[] = [
  {
    name: "rust, regex + rand + md5",
    request: { language: "rust", solution: RUST_CRATES_SOLUTION, test: RUST_CRATES_TEST },
  },
  ...(["rust", "go", "java", "kotlin", "scala"] as SandboxLanguage[]).map((language) => ({
    name: `${language}, hello`,
    request: { language, ...getRecipe(language).hello },
  })),
];
const CASES = ALL_CASES.filter((item) => LANGUAGES.includes(item.request.language));

async function timeSandbox(request: RunRequest): Promise<{ medianMs: number; outcomes: string[] }> {
  const times: number[] = [];
  const outcomes: string[] = [];
  for (let index = 0; index < RUNS; index++) {
    const started = performance.now();
    const result = await backend.run({ ...request, timeoutMs: TIMEOUT_MS });
    times.push(performance.now() - started);
    outcomes.push(result.outcome);
  }
  return { medianMs: percentile(times, 50), outcomes };
}

/**
 * The reference's way for a Rust job: a Cargo project with the crates as dependencies, `cargo test`
 * in a fresh target folder (the crates' sources fetched beforehand, not timed). Outside the sandbox,
 * so it leaves out the sandbox's own overhead (tens of milliseconds).
 */
async function timeCargoRebuild(): Promise<{ medianMs: number; outcomes: string[] }> {
  const work = await mkdtemp(join(tmpdir(), "verity-bench-cargo-"));
  try {
    await cp(resolve("scripts/sandbox-rust-crates"), join(work, "project"), { recursive: true });
    await writeFile(join(work, "project", "src", "main.rs"), `${RUST_CRATES_SOLUTION}\n${RUST_CRATES_TEST}`);
    const env = { ...process.env, CARGO_HOME: join(work, "cargo"), RUSTC: "/usr/bin/rustc" };
    execFileSync("/usr/bin/cargo", ["fetch", "--locked"], { cwd: join(work, "project"), env, stdio: "ignore" });
    const times: number[] = [];
    const outcomes: string[] = [];
    for (let index = 0; index < RUNS; index++) {
      const target = join(work, `target-${index}`);
      const started = performance.now();
      try {
        execFileSync("/usr/bin/cargo", ["test", "--offline", "--locked"], {
          cwd: join(work, "project"),
          env: { ...env, CARGO_TARGET_DIR: target },
          stdio: "ignore",
        });
        outcomes.push("PASSED");
      } catch {
        outcomes.push("RUNTIME_ERROR");
      }
      times.push(performance.now() - started);
    }
    return { medianMs: percentile(times, 50), outcomes };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const loadBefore = uptime();
const rows: string[] = [];
const medians: Record<string, number | null> = {};
for (const item of CASES) {
  const found = await backend.toolchain(item.request.language);
  if (!found.isFound) {
    rows.push(`| ${item.name} | not installed (${found.missing.join(", ")}) | | |`);
    medians[item.name] = null;
    continue;
  }
  const { medianMs, outcomes } = await timeSandbox(item.request);
  medians[item.name] = Math.round(medianMs);
  rows.push(
    `| ${item.name} | ${(medianMs / 1000).toFixed(2)} s | ${[...new Set(outcomes)].join(", ")} | local sandbox |`,
  );
  console.log(rows.at(-1));
}
if (LANGUAGES.includes("rust")) {
  const cargo = await timeCargoRebuild();
  rows.push(
    `| rust, regex + rand + md5, crates rebuilt per job (the reference's way, cargo test) | ${(cargo.medianMs / 1000).toFixed(2)} s | ${[...new Set(cargo.outcomes)].join(", ")} | bare, no sandbox |`,
  );
  console.log(rows.at(-1));
}
const loadAfter = uptime();

const section = `${SECTION}

\`npm run bench:sandbox-toolchains\`: one record at a time, median of ${RUNS} runs, wall time of the whole
run (splice, job folder, sandbox, compile, run). ${machineLine(describeMachine("—"))} Load:
\`${loadBefore}\` before, \`${loadAfter}\` after.

| record | median | outcomes | where |
|---|---|---|---|
${rows.join("\n")}
`;
if (!options["no-write"]) writeBenchmarkSection(SECTION, section);
console.log(section);
benchRun.finish({ medianMs: medians });
