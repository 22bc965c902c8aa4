// Dataset environment benchmark (issue 35): the time and size of building an environment of every
// kind from the registries, and a run's overhead with an environment mounted against none (the same
// Python `pass` program, alternating, median of N each; aim ≤ 30 ms). No database. Writes
// docs/benchmarks.md.
//
//   npm run bench:environment [-- --runs 40 --no-write --json]
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

import {
  BENCH_OPTIONS,
  machineLine,
  describeMachine,
  ms,
  percentile,
  startBenchRun,
  uptime,
  writeBenchmarkSection,
} from "./common";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "40" },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:environment", options);
const SECTION = "## Issue 35: dataset environments";

const { environmentSpecSchema } = await import("@/lib/records/environment-spec");
const { buildEnvironment, removeEnvironmentFolder } = await import("@/lib/server/sandbox/environment-build");
const { createLocalBackend } = await import("@/lib/server/sandbox/local");

/** The environment the sandbox test builds: one entry of every kind. */
const SPEC = environmentSpecSchema.parse({
  go: ["github.com/stretchr/testify@v1.8.0"],
  npm: ["js-md5@0.8.3"],
  python: ["tabulate==0.9.0"],
  maven: ["org.apache.commons:commons-lang3:3.17.0"],
  debian: ["libutfcpp-dev=3.2.3-1"],
});

const loadBefore = uptime();
const root = await mkdtemp(join(tmpdir(), "verity-bench-env-"));
await chmod(root, 0o755);
const dir = join(root, "v1");
const steps: { kind: string; ms: number }[] = [];
let stepStarted = performance.now();
const buildStarted = performance.now();
const built = await buildEnvironment({
  spec: SPEC,
  dir,
  log: (line) => {
    const match = /^— (\w+): \d+ resolved$/.exec(line);
    if (match) {
      steps.push({ kind: match[1], ms: performance.now() - stepStarted });
      stepStarted = performance.now();
    }
    if (/^— \w+: [^0-9]/.test(line)) stepStarted = performance.now();
  },
});
const buildMs = performance.now() - buildStarted;

const backend = createLocalBackend({ isUnsafe: false, concurrency: 1, memoryLimitMb: 1024, workDir: null });
const environment = {
  version: 1,
  hostDir: dir,
  kinds: ["go", "npm", "python", "maven", "debian"] as const,
  javaJars: built.javaJars,
};
const request = { language: "python" as const, solution: "pass\n", test: "pass\n" };
const runs = Number(options.runs);
const bare: number[] = [];
const mounted: number[] = [];
await backend.run(request); // warm the host layout cache and the page cache
for (let index = 0; index < runs; index++) {
  for (const withEnvironment of index % 2 === 0 ? [false, true] : [true, false]) {
    const started = performance.now();
    const result = await backend.run(withEnvironment ? { ...request, environment } : request);
    if (result.outcome !== "PASSED") throw new Error(`a Python pass run came out ${result.outcome}: ${result.stderr}`);
    (withEnvironment ? mounted : bare).push(performance.now() - started);
  }
}
await removeEnvironmentFolder(dir);
await rm(root, { recursive: true, force: true });
const loadAfter = uptime();

const bareMedian = percentile(bare, 50);
const mountedMedian = percentile(mounted, 50);
const figures = {
  buildMs: ms(buildMs),
  steps: steps.map((step) => ({ kind: step.kind, ms: ms(step.ms) })),
  sizeBytes: built.sizeBytes,
  runs,
  bareMedianMs: ms(bareMedian),
  mountedMedianMs: ms(mountedMedian),
  overheadMs: ms(mountedMedian - bareMedian),
};
console.error(JSON.stringify(figures));

if (!options["no-write"]) {
  const date = new Date().toISOString().slice(0, 10);
  writeBenchmarkSection(
    SECTION,
    [
      SECTION,
      "",
      `Run on ${date} with \`npm run bench:environment -- --runs ${runs}\`. An environment of every kind, built from the registries`,
      "(PyPI, npm, the Go module proxy, Maven Central, deb.debian.org) into an empty folder, then made read-only:",
      `${describeSpecLine()}.`,
      "",
      "| step | wall |",
      "|---|---:|",
      ...steps.map((step) => `| ${step.kind} | ${(step.ms / 1000).toFixed(1)} s |`),
      `| whole build (with making it read-only) | ${(buildMs / 1000).toFixed(1)} s |`,
      "",
      `On disk: ${(built.sizeBytes / 1024 / 1024).toFixed(1)} MiB.`,
      "",
      `A run with the environment mounted at /env against the same run without (a Python \`pass\` program, ${runs} of each, alternating, one slot):`,
      `median ${bareMedian.toFixed(1)} ms without, ${mountedMedian.toFixed(1)} ms with, **${(mountedMedian - bareMedian).toFixed(1)} ms** overhead (aim ≤ 30 ms).`,
      "",
      `Load: \`${loadBefore}\` before, \`${loadAfter}\` after.`,
      "",
      machineLine(describeMachine("none")),
    ].join("\n"),
  );
}
benchRun.finish(figures);

function describeSpecLine(): string {
  return Object.entries(SPEC)
    .filter(([, entries]) => entries.length > 0)
    .map(([kind, entries]) => `${kind} ${entries.map((entry) => `\`${entry}\``).join(", ")}`)
    .join("; ");
}
