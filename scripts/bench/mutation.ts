// Mutation throughput and what each signal catches on the demo data (issue 23). In its own embedded
// PostgreSQL (.data/bench-mutation, made afresh each run), the demo dataset's records in every
// language that can run here are imported, then — all through the batch workers, as the CLI does —
// verified (`verity verify`), run by the demo solver models (`verity solutions import`), measured by
// mutation (`verity evidence --mutants N --repeat 0`, the timed part) and checked for flaky tests
// (`verity evidence --mutants 0 --repeat K`). Prints mutants per minute and the stillborn share per
// language, then which of the manifest's flawed records each signal flags: the signals are the
// dataset's own filters (listRecords with the evidence reasons of lib/server/evidence/reasons.ts, the
// critic and execution filters), held against the pure rule of lib/evidence/suspicion.ts record by
// record. Writes docs/benchmarks.md.
//
//   npm run bench:mutation [-- --mutants 8 --repeat 3 --flaky all|sample --report-only --no-write --json
//     --db-port N --data-dir DIR]
//   npm run bench:mutation -- --compare [--languages cpp,java --mutants 8 --no-write --json]: mutant runs
//     per minute each mutant alone and switched (mutant schemata), per language (mutation-compare.ts).
//   npm run bench:mutation -- --weak-precision [--no-write --json]: the weak-tests flag's precision and
//     recall on the demo's planted records, likely-equivalent survivors counted and apart (mutation-precision.ts).
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";

import pg from "pg";

import { type DemoManifestEntry, readDemoManifest } from "@/prisma/demo/manifest";
import type { Actor } from "@/lib/server/auth/permissions";
import type { RecordFilters, RecordView } from "@/lib/server/records/records";

import {
  BENCH_OPTIONS,
  describeMachine,
  machineLine,
  selectBenchDatabase,
  startBenchRun,
  uptime,
  writeBenchmarkSection,
} from "./common";

const { values: options } = parseArgs({
  options: {
    mutants: { type: "string", default: "8" },
    repeat: { type: "string", default: "3" },
    // "all": every record's flakiness checked by a batch; "sample": only the records the manifest says
    // may be nondeterministic, plus every fifth other one, each checked on request (the record page's
    // button) — for a loaded machine, where the batch takes too long.
    flaky: { type: "string", default: "all" },
    // Runs nothing: reports what a previous run (stopped, or still running) left in the database.
    "report-only": { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false },
    // Each mutant a program of its own against the mutants switched in one program, on the same
    // records (mutation-compare.ts); no database. --languages cpp,java limits it.
    compare: { type: "boolean", default: false },
    // The weak-tests flag against the demo's planted weak tests, every survivor and real survivors
    // only (mutation-precision.ts); no database.
    "weak-precision": { type: "boolean", default: false },
    languages: { type: "string" },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:mutation", options);
if (options.flaky !== "all" && options.flaky !== "sample") throw new Error("--flaky takes all or sample");
const MUTANTS = Number(options.mutants);
const REPEAT = Number(options.repeat);
const SECTION = "## Mutation throughput and what each signal catches on the demo data (issue 23)";
const DATASET = "demo";
const DEMO_DIR = join("prisma", "demo");

if (options.compare) {
  const { compareMutationWays } = await import("./mutation-compare");
  const comparison = await compareMutationWays({
    mutants: MUTANTS,
    languages: options.languages ? options.languages.split(",") : null,
    isWriting: !options["no-write"],
    load: uptime,
  });
  console.error(`overall ${comparison.overall}×; outcomes identical: ${comparison.scoresIdentical}`);
  benchRun.finish(comparison);
  process.exit(0);
}

if (options["weak-precision"]) {
  const { measureWeakPrecision } = await import("./mutation-precision");
  const precision = await measureWeakPrecision({ mutants: MUTANTS, isWriting: !options["no-write"], load: uptime });
  console.error(
    `weak-tests flag: precision ${precision.allSurvivors.precision} counting every survivor, ` +
      `${precision.realSurvivors.precision} counting real survivors only`,
  );
  benchRun.finish(precision);
  process.exit(0);
}

const REPORT_ONLY = options["report-only"];
const { dataDir: DATA_DIR } = await selectBenchDatabase(options, ".data/bench-mutation");
if (!REPORT_ONLY) rmSync(DATA_DIR, { recursive: true, force: true });

const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { config } = await import("@/lib/server/config");
const { openDatabase } = await import("@/lib/server/db/database");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { getServerVersion } = await import("@/lib/server/db/health");
const { importRecords } = await import("@/lib/server/imports/imports");
const { upsertUserFromCli } = await import("@/lib/server/users/users");
const { listRecords } = await import("@/lib/server/records/records");
const { getSandboxRouter } = await import("@/lib/server/sandbox");
const { startVerification, startVerificationWorkers, stopVerificationWorkers } =
  await import("@/lib/server/verification/jobs");
const { getVerificationProgress } = await import("@/lib/server/verification/batches");
const { importAndRunSolutions } = await import("@/lib/server/solvers/jobs");
const { getSolutionBatchProgress } = await import("@/lib/server/solvers/get-solution-batch-progress");
const { checkRecordFlakiness, startEvidence } = await import("@/lib/server/evidence/jobs");
const { getEvidenceProgress, summarizeEvidenceBatch } = await import("@/lib/server/evidence/batches");
const { EVIDENCE_REASON_LABELS, EVIDENCE_REASONS, evidenceReasonsOf, WEAK_TESTS_THRESHOLD } =
  await import("@/lib/evidence/suspicion");
const { normalizeLanguage } = await import("@/lib/records/languages");

/** Records whose outcome the manifest says may change from run to run, or whose flakiness it states. */
const mayBeNondeterministic = (entry: DemoManifestEntry) =>
  entry.flaw === "nondeterministic-test" ||
  entry.expectedExecution === "any" ||
  typeof entry.expectedEvidence?.flaky === "boolean";

async function* text(value: string): AsyncGenerator<string> {
  yield value;
}

/** Polls a batch's progress until it is no longer RUNNING; the last progress and the seconds since `started`. */
async function finished<T extends { status: string }>(
  started: number,
  read: () => Promise<T>,
): Promise<{ progress: T; seconds: number }> {
  for (;;) {
    const progress = await read();
    if (progress.status !== "RUNNING") return { progress, seconds: (performance.now() - started) / 1000 };
    await sleep(250);
  }
}

/** Every record of the dataset matching `filters`, through the dataset's own listing (keyset pages). */
async function recordsMatching(actor: Actor, filters: RecordFilters): Promise<RecordView[]> {
  const out: RecordView[] = [];
  let cursor: number | undefined;
  do {
    const page = await listRecords({ actor, datasetName: DATASET, filters, limit: 100, cursor });
    out.push(...page.records);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return out;
}

const percent = (part: number, whole: number) => (whole === 0 ? "—" : `${((100 * part) / whole).toFixed(0)}%`);
const score = (value: number | null | undefined) => (value === null || value === undefined ? "—" : value.toFixed(2));

/** The signals the table reports: the four evidence reasons, then the critic's verdict and execution. */
const SIGNALS: { name: string; filters: RecordFilters }[] = [
  ...EVIDENCE_REASONS.map((reason) => ({
    name:
      reason === "weak_tests"
        ? `${EVIDENCE_REASON_LABELS[reason]} (score < ${WEAK_TESTS_THRESHOLD})`
        : EVIDENCE_REASON_LABELS[reason],
    filters: { evidence: reason } as RecordFilters,
  })),
  { name: "Critic fails it", filters: { critic: "fail" } },
  { name: "Execution failed", filters: { executable: "failed" } },
];

/** What the batches took, from this run or (--report-only) from the database a previous run left. */
type Run = {
  verificationSeconds: number;
  solutions: number;
  models: number;
  solutionSeconds: number;
  mutationBatchId: string;
  mutationSeconds: number;
  /** Record tasks of the mutation batch done, of its total (a stopped run reports a partial batch). */
  mutationDone: number;
  mutationTotal: number;
  loadBefore: string;
  loadAfter: string;
  loadEnd: string;
  checked: { mode: "all" | "sample"; seconds: number | null; flaky: number; stable: number; records: number };
};

/** The newest batches of each kind in the benchmark's database, for --report-only. */
async function runFromDatabase(client: pg.Client): Promise<Run> {
  const seconds = (from: Date, to: Date | null) => (to ? (to.getTime() - from.getTime()) / 1000 : Number.NaN);
  const verification = (
    await client.query<{ createdAt: Date; finishedAt: Date | null }>(
      `SELECT "createdAt", "finishedAt" FROM "VerificationBatch" ORDER BY "createdAt" DESC LIMIT 1`,
    )
  ).rows[0];
  const solutions = (
    await client.query<{ createdAt: Date; finishedAt: Date | null; total: number; models: number }>(
      `SELECT b."createdAt", b."finishedAt", b.total, (SELECT COUNT(DISTINCT model)::int FROM "Solution") AS models
         FROM "SolutionBatch" b ORDER BY b."createdAt" DESC LIMIT 1`,
    )
  ).rows[0];
  const mutation = (
    await client.query<{ id: string; createdAt: Date; last: Date | null; done: number; total: number }>(
      `SELECT b.id, b."createdAt", COALESCE(b."finishedAt", (SELECT MAX(a."createdAt") FROM "MutationAnalysis" a WHERE a."batchId" = b.id)) AS last,
              b.done, b.total
         FROM "EvidenceBatch" b WHERE b.mutants > 0 ORDER BY b."createdAt" DESC LIMIT 1`,
    )
  ).rows[0];
  const checks = (
    await client.query<{ records: number; flaky: number; stable: number; inBatch: number }>(
      `SELECT COUNT(*)::int AS records, COUNT(*) FILTER (WHERE flaky)::int AS flaky,
              COUNT(*) FILTER (WHERE flaky = false)::int AS stable, COUNT("batchId")::int AS "inBatch" FROM "FlakyCheck"`,
    )
  ).rows[0];
  const now = uptime();
  return {
    verificationSeconds: seconds(verification.createdAt, verification.finishedAt),
    solutions: solutions.total,
    models: solutions.models,
    solutionSeconds: seconds(solutions.createdAt, solutions.finishedAt),
    mutationBatchId: mutation.id,
    mutationSeconds: seconds(mutation.createdAt, mutation.last),
    mutationDone: mutation.done,
    mutationTotal: mutation.total,
    loadBefore: "not recorded (--report-only)",
    loadAfter: now,
    loadEnd: now,
    checked: { mode: checks.inBatch > 0 ? "all" : "sample", seconds: null, ...checks },
  };
}

async function main(): Promise<void> {
  const database = await openDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const postgres = await getServerVersion();
    const admin = (
      await upsertUserFromCli({ actor: SYSTEM_ACTOR.cli, email: "admin@bench.test", role: "ADMIN", languages: [] })
    ).actor;

    // The demo records whose language can run here, in file order (the manifest names them by line).
    const demoLines = readFileSync(join(DEMO_DIR, "demo.jsonl"), "utf8").split("\n").filter(Boolean);
    const manifest = readDemoManifest();
    const languageOf = demoLines.map((line) => normalizeLanguage((JSON.parse(line) as { language: string }).language)!);
    const router = getSandboxRouter();
    const runnable = new Map<string, boolean>();
    for (const language of new Set(languageOf))
      runnable.set(language, (await router.availabilityOf(language)).available);
    const keptLines = demoLines.flatMap((_, index) => (runnable.get(languageOf[index]) ? [index + 1] : []));
    const skippedLanguages = [...runnable].filter(([, available]) => !available).map(([language]) => language);
    const entryOf = (record: RecordView) => manifest.find((entry) => entry.line === keptLines[record.line - 1])!;
    const run = REPORT_ONLY ? await runFromDatabase(client) : await collect();
    const workers = config().workers.verificationConcurrency;
    const sandboxSlots = config().sandbox.concurrency;

    /** Imports the demo records and runs every batch through this process's workers. */
    async function collect(): Promise<Run> {
      const imported = await importRecords({
        actor: SYSTEM_ACTOR.cli,
        datasetName: DATASET,
        source: text(`${keptLines.map((line) => demoLines[line - 1]).join("\n")}\n`),
        skipInvalid: false,
        origin: "cli",
        fileName: "demo.jsonl",
      });
      if (!imported.ok) throw new Error(`the demo import failed: ${JSON.stringify(imported.errors)}`);
      console.error(
        `Imported ${imported.imported} demo records (${skippedLanguages.length ? `no toolchain here: ${skippedLanguages.join(", ")}` : "every language"}).`,
      );

      await startVerificationWorkers();

      console.error("Verifying the records…");
      let started = performance.now();
      const verification = await startVerification({ actor: SYSTEM_ACTOR.cli, datasetName: DATASET, force: false });
      const verified = await finished(started, () =>
        getVerificationProgress({ actor: SYSTEM_ACTOR.cli, batchId: verification.batchId }),
      );

      // The demo solver models' outputs for the records imported (the file names every demo record).
      const keys = new Set((await recordsMatching(admin, {})).map((record) => record.key));
      const solutionLines = readFileSync(join(DEMO_DIR, "solutions.jsonl"), "utf8")
        .split("\n")
        .filter((line) => line && keys.has((JSON.parse(line) as { key?: string }).key ?? ""));
      console.error(`Running ${solutionLines.length} solver solutions…`);
      started = performance.now();
      const solutionImport = await importAndRunSolutions({
        actor: SYSTEM_ACTOR.cli,
        datasetName: DATASET,
        source: text(`${solutionLines.join("\n")}\n`),
        defaultModel: null,
        origin: "cli",
        fileName: "solutions.jsonl",
      });
      const solved = await finished(started, () =>
        getSolutionBatchProgress({ actor: SYSTEM_ACTOR.cli, batchId: solutionImport.batchId }),
      );

      console.error(`Mutation analysis, ${MUTANTS} mutants per record…`);
      const loadBefore = uptime();
      started = performance.now();
      const mutation = await startEvidence({
        actor: SYSTEM_ACTOR.cli,
        datasetName: DATASET,
        mutants: MUTANTS,
        repeat: 0,
      });
      const mutated = await finished(started, () =>
        getEvidenceProgress({ actor: SYSTEM_ACTOR.cli, batchId: mutation.batchId }),
      );
      const loadAfter = uptime();

      const listed = await recordsMatching(admin, {});
      const flakinessSample = listed.filter(
        (record, index) => mayBeNondeterministic(entryOf(record)) || index % 5 === 0,
      );
      console.error(
        `Flakiness check, the tests of ${options.flaky === "all" ? "every record" : `${flakinessSample.length} records`} ${REPEAT} times alone…`,
      );
      started = performance.now();
      let checked: Run["checked"];
      if (options.flaky === "all") {
        const flakiness = await startEvidence({
          actor: SYSTEM_ACTOR.cli,
          datasetName: DATASET,
          mutants: 0,
          repeat: REPEAT,
        });
        const done = await finished(started, () =>
          getEvidenceProgress({ actor: SYSTEM_ACTOR.cli, batchId: flakiness.batchId }),
        );
        if (done.progress.status !== "SUCCEEDED")
          throw new Error(`the flakiness batch ended ${done.progress.status}: ${done.progress.stopReason}`);
        const counted = await summarizeEvidenceBatch({
          actor: SYSTEM_ACTOR.cli,
          batchId: flakiness.batchId,
          weakBelow: WEAK_TESTS_THRESHOLD,
        });
        checked = {
          mode: "all",
          seconds: done.seconds,
          flaky: counted.flaky,
          stable: counted.stable,
          records: counted.records,
        };
      } else {
        let flaky = 0;
        let stable = 0;
        for (const record of flakinessSample) {
          const verdict = await checkRecordFlakiness({ actor: admin, recordId: record.id, repeat: REPEAT });
          if (verdict.flaky === true) flaky++;
          if (verdict.flaky === false) stable++;
        }
        checked = {
          mode: "sample",
          seconds: (performance.now() - started) / 1000,
          flaky,
          stable,
          records: flakinessSample.length,
        };
      }
      const loadEnd = uptime();
      await stopVerificationWorkers();
      for (const [name, done] of [
        ["verification", verified.progress],
        ["solutions", solved.progress],
        ["mutation", mutated.progress],
      ] as const)
        if (done.status !== "SUCCEEDED") throw new Error(`the ${name} batch ended ${done.status}: ${done.stopReason}`);
      return {
        verificationSeconds: verified.seconds,
        solutions: solved.progress.total,
        models: solutionImport.models.length,
        solutionSeconds: solved.seconds,
        mutationBatchId: mutation.batchId,
        mutationSeconds: mutated.seconds,
        mutationDone: mutated.progress.done,
        mutationTotal: mutated.progress.total,
        loadBefore,
        loadAfter,
        loadEnd,
        checked,
      };
    }
    const { checked, loadBefore, loadAfter, loadEnd } = run;
    const summary = await summarizeEvidenceBatch({
      actor: SYSTEM_ACTOR.cli,
      batchId: run.mutationBatchId,
      weakBelow: WEAK_TESTS_THRESHOLD,
    });

    // Sandbox runs behind the mutants, and why the stillborn ones were, per language (the stored mutants).
    const mutantRows = (
      await client.query<{ language: string; runs: number; cause: string | null; stillborn: number }>(
        `SELECT r.language,
                COUNT(m."demoOutcome")::int + COUNT(m."fullOutcome")::int AS runs,
                CASE WHEN m.status = 'STILLBORN' THEN COALESCE(m."fullOutcome", m."demoOutcome") END AS cause,
                COUNT(*) FILTER (WHERE m.status = 'STILLBORN')::int AS stillborn
           FROM "Mutant" m JOIN "MutationAnalysis" a ON a.id = m."analysisId" JOIN "Record" r ON r.id = a."recordId"
          WHERE a."batchId" = $1 GROUP BY 1, 3`,
        [run.mutationBatchId],
      )
    ).rows;
    const sandboxRuns = mutantRows.reduce((sum, row) => sum + row.runs, 0);
    const causesOf = (language: string) =>
      mutantRows
        .filter((row) => row.language === language && row.cause)
        .sort((a, b) => b.stillborn - a.stillborn)
        .map((row) => `${row.cause!.toLowerCase().replaceAll("_", " ")} ${row.stillborn}`)
        .join(", ") || "—";
    const notApplicable = (
      await client.query<{ language: string; reason: string; n: number }>(
        `SELECT r.language, a."notApplicable" AS reason, COUNT(*)::int AS n
           FROM "MutationAnalysis" a JOIN "Record" r ON r.id = a."recordId"
          WHERE a."batchId" = $1 AND a."notApplicable" IS NOT NULL GROUP BY 1, 2 ORDER BY 1`,
        [run.mutationBatchId],
      )
    ).rows;

    const minutes = run.mutationSeconds / 60;
    const languageRows = Object.entries(summary.byLanguage)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([language, counts]) =>
          `| ${language} | ${counts.records} | ${counts.measured} | ${counts.mutants} | ${counts.viable} | ${counts.stillborn} | ${counts.killed} | ${percent(counts.stillborn, counts.mutants)} | ${score(counts.meanScore)} | ${causesOf(language)} |`,
      );

    // Which records each signal flags: the dataset's own filters, record by record.
    const records = await recordsMatching(admin, {});
    const flagged = new Map<string, Set<number>>();
    for (const signal of SIGNALS)
      flagged.set(signal.name, new Set((await recordsMatching(admin, signal.filters)).map((record) => record.id)));
    // The filters state the evidence reasons in SQL; the pure rule must give the same answer on each record.
    const disagreements: string[] = [];
    for (const record of records) {
      const facts = {
        mutationScore: record.evidence.mutation?.score ?? null,
        flaky: record.evidence.flaky,
        solversTotal: record.evidence.solvers?.total ?? 0,
        solversSolved: record.evidence.solvers?.solved ?? 0,
        criticPass: record.critic?.overallPass ?? null,
        executableValid: record.executableValid,
      };
      const reasons = evidenceReasonsOf(facts);
      EVIDENCE_REASONS.forEach((reason, index) => {
        if (reasons.includes(reason) !== flagged.get(SIGNALS[index].name)!.has(record.id))
          disagreements.push(`line ${record.line} ${reason}`);
      });
    }
    if (disagreements.length > 0)
      throw new Error(`the filters and evidenceReasonsOf disagree: ${disagreements.join(", ")}`);

    const signalsOf = (record: RecordView) =>
      SIGNALS.filter((signal) => flagged.get(signal.name)!.has(record.id)).map((signal) => signal.name);
    const flawed = records.filter((record) => !entryOf(record).valid);
    const valid = records.filter((record) => entryOf(record).valid);
    const flawedRows = flawed.map((record) => {
      const entry = entryOf(record);
      const solvers = record.evidence.solvers;
      const found = signalsOf(record);
      return `| ${entry.line} | ${entry.title} | ${entry.language} | ${entry.flaw} | ${record.verificationOutcome?.toLowerCase().replaceAll("_", " ") ?? "—"} | ${score(record.evidence.mutation?.score)} | ${solvers ? `${solvers.solved}/${solvers.total}` : "—"} | ${record.evidence.flaky === null ? "—" : record.evidence.flaky ? "yes" : "no"} | ${found.join(", ") || "**none**"} |`;
    });
    const anyOf = (record: RecordView) => signalsOf(record).length > 0;
    const signalRows = [
      ...SIGNALS.map((signal) => {
        const ids = flagged.get(signal.name)!;
        const caught = flawed.filter((record) => ids.has(record.id)).length;
        const falselyFlagged = valid.filter((record) => ids.has(record.id)).length;
        return `| ${signal.name} | ${caught}/${flawed.length} (${percent(caught, flawed.length)}) | ${falselyFlagged}/${valid.length} (${percent(falselyFlagged, valid.length)}) |`;
      }),
      `| Any of them | ${flawed.filter(anyOf).length}/${flawed.length} (${percent(flawed.filter(anyOf).length, flawed.length)}) | ${valid.filter(anyOf).length}/${valid.length} (${percent(valid.filter(anyOf).length, valid.length)}) |`,
    ];
    const falseFlags = valid
      .filter(anyOf)
      .map((record) => `${entryOf(record).title} (${entryOf(record).language}: ${signalsOf(record).join(", ")})`);
    const flakyRecords = records
      .filter((record) => record.evidence.flaky)
      .map((record) => `${entryOf(record).title} (${entryOf(record).language})`);

    const result = {
      records: records.length,
      skippedLanguages,
      workers,
      sandboxSlots,
      verificationSeconds: Number(run.verificationSeconds.toFixed(1)),
      solutions: run.solutions,
      solutionSeconds: Number(run.solutionSeconds.toFixed(1)),
      mutationSeconds: Number(run.mutationSeconds.toFixed(1)),
      mutationDone: run.mutationDone,
      mutationTotal: run.mutationTotal,
      mutants: summary.mutants,
      viable: summary.viable,
      stillborn: summary.stillborn,
      killed: summary.killed,
      sandboxRuns,
      mutantsPerMinute: Number((summary.mutants / minutes).toFixed(1)),
      sandboxRunsPerMinute: Number((sandboxRuns / minutes).toFixed(1)),
      flakySeconds: checked.seconds === null ? null : Number(checked.seconds.toFixed(1)),
      flakyChecked: checked.records,
      flaky: checked.flaky,
      stable: checked.stable,
      flawed: flawed.length,
      flawedCaught: flawed.filter(anyOf).length,
      valid: valid.length,
      validFlagged: valid.filter(anyOf).length,
    };
    console.error(JSON.stringify(result));

    const section = [
      SECTION,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:mutation\` (\`-- --mutants ${MUTANTS} --repeat ${REPEAT}\`): the demo dataset (\`prisma/demo/demo.jsonl\`), ${records.length} records in the languages with a toolchain here${skippedLanguages.length ? ` (not ${skippedLanguages.join(", ")}: no local toolchain, so their ${demoLines.length - records.length} records are left out)` : ""}, imported into an embedded PostgreSQL of the benchmark's own (\`.data/bench-mutation\`). Everything ran through the batch workers of this process (${workers} workers, ${sandboxSlots} sandbox slots), one batch after the other, as the CLI runs them: \`verity verify\` (${run.verificationSeconds.toFixed(1)} s), \`verity solutions import prisma/demo/solutions.jsonl\` (${run.solutions} solutions of ${run.models} models, ${run.solutionSeconds.toFixed(1)} s), \`verity evidence --mutants ${MUTANTS} --repeat 0\` (timed below) and ${checked.mode === "all" ? `\`verity evidence --mutants 0 --repeat ${REPEAT}\`` : `the flakiness check on request (the record page's button, \`POST /api/v1/records/{id}/flaky\`) of ${checked.records} records`}${checked.seconds === null ? "" : ` (${checked.seconds.toFixed(1)} s)`}.${run.mutationDone < run.mutationTotal ? ` **The mutation batch was stopped before its end: ${run.mutationDone} of ${run.mutationTotal} records analysed** (the figures below are over those; wall time up to the last analysis stored).` : ""}`,
      "",
      "### Mutants per minute in batch",
      "",
      `A **mutant run** is one mutant of a record's canonical solution run against the demo test and, unless that run left it stillborn, against the full test: up to two sandbox runs. The batch made ${summary.mutants} mutants (${sandboxRuns} sandbox runs) in **${run.mutationSeconds.toFixed(1)} s** wall time: **${(summary.mutants / minutes).toFixed(1)} mutant runs per minute** (${(sandboxRuns / minutes).toFixed(1)} sandbox runs per minute) with ${workers} workers. The wall time also holds, for the records whose canonical solution failed at verification, the two runs that find it still fails (they get no score). Stillborn = did not build, or timed out (not counted in the score); the score is killed ÷ viable.`,
      "",
      "| Language | Records analysed | Measured | Mutants | Viable | Stillborn | Killed | Stillborn share | Mean score | Stillborn because |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
      ...languageRows,
      `| **all** | ${summary.records} | ${summary.measured} | ${summary.mutants} | ${summary.viable} | ${summary.stillborn} | ${summary.killed} | ${percent(summary.stillborn, summary.mutants)} | ${score(summary.meanScore)} | |`,
      "",
      `Records analysed but not measured: ${notApplicable.map((row) => `${row.language} ${row.n} (${row.reason})`).join("; ") || "none"}.`,
      "",
      `Load average before and after the mutation batch: \`${loadBefore}\`; \`${loadAfter}\`; at the end of the flakiness check \`${loadEnd}\`. On a machine whose load passes its cores these rates are lower bounds for an idle one.`,
      "",
      "### Which flawed records each signal catches",
      "",
      `The manifest (\`prisma/demo/manifest.json\`) names each flawed record's flaw. A signal flags a record when the dataset's own filter finds it: the four evidence reasons (\`evidence=weak_tests\` at the default threshold ${WEAK_TESTS_THRESHOLD}, \`flaky\`, \`unsolved\`, \`critic_vs_execution\`; lib/server/evidence/reasons.ts), the critic's verdict (\`critic=fail\`, the verdict embedded in the demo records) and execution (\`executable=failed\`, which leaves flaky records out); for every record the four reasons were also checked against the pure rule \`evidenceReasonsOf\` (lib/evidence/suspicion.ts), and agreed. Flaky: ${checked.mode === "all" ? "every record's" : `only ${checked.records} records' — those the manifest says may be nondeterministic (flaw \`nondeterministic-test\` or execution \`any\`) or states an expected flakiness for and every fifth other one, to save time on the loaded machine; "—" below is not checked —`} demo and full tests run ${REPEAT} times, each run alone (${checked.flaky} flaky, ${checked.stable} stable). Flaky records: ${flakyRecords.join(", ") || "none"}.`,
      "",
      "| Line | Record | Language | Flaw | Verification | Mutation score | Solved by | Flaky | Flagged by |",
      "|---:|---|---|---|---|---:|---:|---|---|",
      ...flawedRows,
      "",
      "| Signal | Flawed records caught | Valid records falsely flagged |",
      "|---|---:|---:|",
      ...signalRows,
      "",
      `Valid records flagged: ${falseFlags.join("; ") || "none"}.`,
      "",
      machineLine(describeMachine(postgres)),
      "",
    ].join("\n");
    console.log(section);
    if (!options["no-write"]) writeBenchmarkSection(SECTION, section);
    benchRun.finish(result);
  } finally {
    await client.end();
    await disconnectPrisma();
    await database.stop();
  }
}

await main();
process.exit(0);
