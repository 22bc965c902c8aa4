// Import benchmark: 100,000 synthetic AutoCodeBench-shaped records through importRecords, against a
// COPY of the same rows into scratch tables (none, or Record's indexes, temp or logged), on a database
// of its own, for a few rounds; then the record browser's question search on the imported rows.
// Prints a Markdown table and writes the "Import against COPY with the same indexes" subsection of
// docs/benchmarks.md ("Scale-out (issue: scale-out)").
//
//   npm run bench:import -- [--records N] [--rounds 3] [--database-url URL | --db-port N --data-dir DIR] [--no-write] [--json]
//
// With --mapping NAME (humaneval, mbpp, humaneval-x) it instead imports N records of that benchmark's
// shape through the shipped mapping, against the same records already in AutoCodeBench form, and
// writes the "Issue 35: import with a mapping" section at the end of docs/benchmarks.md.
import { once } from "node:events";
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";

import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

import {
  BENCH_OPTIONS,
  chooseBenchDatabase,
  describeMachine,
  machineLine,
  percentile,
  startBenchRun,
  uptime,
  writeBenchmarkSection,
  writeBenchmarkSubsection,
} from "./common";

const { values: options } = parseArgs({
  options: {
    records: { type: "string", default: "100000" },
    rounds: { type: "string", default: "3" },
    "database-url": { type: "string" },
    "no-write": { type: "boolean", default: false },
    mapping: { type: "string" },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:import", options);
const RECORD_COUNT = Number(options.records);
if (!Number.isInteger(RECORD_COUNT) || RECORD_COUNT < 1)
  throw new Error(`--records must be a positive integer, got ${options.records}`);
const ROUNDS = Number(options.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1)
  throw new Error(`--rounds must be a positive integer, got ${options.rounds}`);

// Before config is read (the modules below read it lazily): a data dir and port of its own, so the
// benchmark never touches the app's database.
await chooseBenchDatabase(options["database-url"], options, ".data/bench");

const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { openDatabase } = await import("@/lib/server/db/database");
const { importRecords } = await import("@/lib/server/imports/imports");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");
const { LANGUAGES, applyFieldMapping, readItems, recordKey, resolveFieldMapping, validateRecord } =
  await import("@/lib/records");
const { browseRecords } = await import("@/lib/server/records/records");
const { upsertUserFromCli } = await import("@/lib/server/users/users");
type Actor = import("@/lib/server/auth/permissions").Actor;

const PARENT = "## Scale-out (issue: scale-out)";
const SECTION = "### Import against COPY with the same indexes";
const DIFFICULTIES = ["easy", "medium", "hard", null] as const;
const WORDS =
  "array string integer return value input output function list map sort index count sum maximum minimum edge case empty null parse format result".split(
    " ",
  );

type BenchRecord = {
  question: string;
  canonical_solution: string;
  demo_test_func: string;
  full_test_func: string;
  language: string;
  difficulty?: string;
};

/** Deterministic filler text of about `length` characters, different for every (seed, salt). */
function prose(seed: number, salt: number, length: number): string {
  let state = (seed * 2654435761 + salt * 40503) >>> 0;
  const words: string[] = [];
  let size = 0;
  while (size < length) {
    state = (state * 1103515245 + 12345) >>> 0;
    const word = WORDS[state % WORDS.length];
    words.push(word);
    size += word.length + 1;
  }
  return words.join(" ");
}

/** Record `i`, shaped like AutoCodeBench's: ≈500-char question and solution, two test functions of a few hundred chars. */
function syntheticRecord(i: number): BenchRecord {
  const language = LANGUAGES[i % LANGUAGES.length];
  const name = `solve_${i}`;
  const difficulty = DIFFICULTIES[i % DIFFICULTIES.length];
  const record: BenchRecord = {
    question: `# Problem ${i}\n\nWrite a ${language} function \`${name}(values)\` that ${prose(i, 1, 380)}.\n\n## Example\n\n\`\`\`\n${name}([1, 2, 3]) == 6\n\`\`\`\n`,
    canonical_solution: `// ${prose(i, 2, 120)}\nfunction ${name}(values) {\n  let total = 0;\n  for (const value of values) {\n    // ${prose(i, 3, 150)}\n    total += value;\n  }\n  return total;\n}\n// ${prose(i, 4, 120)}\n`,
    demo_test_func: `function demoTesting() {\n  assert(${name}([1, 2, 3]) === 6);\n  assert(${name}([]) === 0);\n  // ${prose(i, 5, 150)}\n}\n`,
    full_test_func: `function fullTesting() {\n${Array.from({ length: 8 }, (_, k) => `  assert(${name}([${k}, ${k + 1}]) === ${2 * k + 1});`).join("\n")}\n  // ${prose(i, 6, 120)}\n}\n`,
    language,
  };
  if (difficulty) record.difficulty = difficulty;
  return record;
}

/** Streams the records to a JSONL file, respecting back-pressure. */
async function writeJsonl(file: string, count: number): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < count; i++) {
    if (!out.write(`${JSON.stringify(syntheticRecord(i))}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

/** Samples RSS every 100 ms; `stop()` returns the peak in bytes. */
function sampleRss(): { stop: () => number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; seconds: number; peakRss: number }> {
  const rss = sampleRss();
  const start = process.hrtime.bigint();
  try {
    const result = await run();
    return { result, seconds: Number(process.hrtime.bigint() - start) / 1e9, peakRss: rss.stop() };
  } catch (error) {
    rss.stop();
    throw error;
  }
}

// COPY text format: backslash, tab, newline and carriage return are escaped; \N is NULL.
function copyField(value: string | number | null): string {
  if (value === null) return "\\N";
  return String(value).replace(/[\\\t\n\r]/g, (c) =>
    c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r",
  );
}

/** The same rows importRecords writes (same generator, same key), as COPY text in ~256 KB chunks. */
async function* copyRows(datasetId: string, count: number): AsyncGenerator<string> {
  let chunk = "";
  for (let i = 0; i < count; i++) {
    const r = syntheticRecord(i);
    const fields = {
      language: r.language as (typeof LANGUAGES)[number],
      question: r.question,
      canonicalSolution: r.canonical_solution,
      demoTestFunc: r.demo_test_func,
      fullTestFunc: r.full_test_func,
    };
    const row = [
      datasetId,
      recordKey(fields),
      i + 1,
      r.language,
      r.difficulty ?? null,
      r.question,
      r.canonical_solution,
      r.demo_test_func,
      r.full_test_func,
      "{}",
    ];
    chunk += `${row.map(copyField).join("\t")}\n`;
    if (chunk.length >= 256 * 1024) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

const COPY_COLUMNS = `"datasetId", key, line, language, difficulty, question, "canonicalSolution", "demoTestFunc", "fullTestFunc", extra`;

async function copyInto(client: pg.Client, table: string, datasetId: string): Promise<number> {
  const stream = client.query(copyFrom(`COPY ${table} (${COPY_COLUMNS}) FROM STDIN`));
  await pipeline(Readable.from(copyRows(datasetId, RECORD_COUNT)), stream);
  return stream.rowCount;
}

/** Times the CPU-side stages of an import with no database: read + JSON parse, then + validate (incl. hashing). */
async function profileStages(file: string) {
  const parse = await timed(async () => {
    let n = 0;
    for await (const item of readItems(createReadStream(file))) if ("value" in item) n++;
    return n;
  });
  const validate = await timed(async () => {
    let n = 0;
    for await (const item of readItems(createReadStream(file)))
      if ("value" in item && validateRecord(item.value).ok) n++;
    return n;
  });
  const hash = await timed(async () => {
    for (let i = 0; i < RECORD_COUNT; i++) {
      const r = syntheticRecord(i);
      recordKey({
        language: r.language as (typeof LANGUAGES)[number],
        question: r.question,
        canonicalSolution: r.canonical_solution,
        demoTestFunc: r.demo_test_func,
        fullTestFunc: r.full_test_func,
      });
    }
    return RECORD_COUNT;
  });
  const generate = await timed(async () => {
    for (let i = 0; i < RECORD_COUNT; i++) syntheticRecord(i);
    return RECORD_COUNT;
  });
  return { parse: parse.seconds, validate: validate.seconds, hash: Math.max(0, hash.seconds - generate.seconds) };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const rate = (count: number, seconds: number) => Math.round(count / seconds).toLocaleString("en-US");
const secs = (seconds: number) => `${seconds.toFixed(2)} s`;

type Round = {
  importSeconds: number;
  importRss: number;
  copySeconds: number;
  copyRss: number;
  indexedSeconds: number;
  indexedRss: number;
  loggedSeconds: number;
  loggedRss: number;
};

/** Milliseconds of each run of the record browser's question search (page and count), as an admin sees it. */
async function timeSearch(
  actor: Actor,
  datasetName: string,
  q: string,
  runs = 21,
): Promise<{ median: number; total: number }> {
  const times: number[] = [];
  let total = 0;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    total = (await browseRecords({ actor, datasetName, filters: { q }, limit: 50 })).total;
    times.push(performance.now() - started);
  }
  return { median: percentile(times, 50), total };
}

/** One import of the file, then COPY of the same rows into three scratch tables; the imported dataset stays until `cleanup`. */
async function runRound(client: pg.Client, file: string, fileBytes: number, datasetName: string): Promise<Round> {
  console.error(`Importing with importRecords into ${datasetName}…`);
  const imported = await timed(() =>
    importRecords({
      actor: SYSTEM_ACTOR.cli,
      datasetName,
      source: createReadStream(file, { highWaterMark: 1024 * 1024 }),
      skipInvalid: false,
      origin: "cli",
      fileName: "records.jsonl",
      bytesTotal: fileBytes,
    }),
  );
  const summary = imported.result;
  if (!summary.ok || summary.imported !== RECORD_COUNT) {
    throw new Error(
      `the import did not take every record: ${JSON.stringify({ ...summary, errors: summary.errors.slice(0, 5) })}`,
    );
  }
  const { rows: datasetRows } = await client.query<{ id: string }>(`SELECT id FROM "Dataset" WHERE name = $1`, [
    datasetName,
  ]);
  const datasetId = datasetRows[0].id;

  console.error("COPY into a scratch table…");
  await client.query(`CREATE TEMP TABLE bench_copy (LIKE "Record" INCLUDING DEFAULTS)`);
  const copied = await timed(() => copyInto(client, "bench_copy", datasetId));
  if (copied.result !== RECORD_COUNT) throw new Error(`COPY wrote ${copied.result} rows, expected ${RECORD_COUNT}`);

  // The same COPY into a table with the real table's indexes (unique key, btrees, trigram GIN):
  // shows how much of the gap is index maintenance rather than the import path.
  console.error("COPY into a temp table with the Record indexes…");
  await client.query(`CREATE TEMP TABLE bench_copy_indexed (LIKE "Record" INCLUDING DEFAULTS INCLUDING INDEXES)`);
  const copiedIndexed = await timed(() => copyInto(client, "bench_copy_indexed", datasetId));
  // A temp table skips the write-ahead log "Record" pays for; an ordinary table with the same indexes does not.
  console.error("COPY into an ordinary (logged) table with the Record indexes…");
  await client.query(`CREATE TABLE bench_copy_logged (LIKE "Record" INCLUDING DEFAULTS INCLUDING INDEXES)`);
  const copiedLogged = await timed(() => copyInto(client, "bench_copy_logged", datasetId));
  await client.query(`DROP TABLE bench_copy, bench_copy_indexed, bench_copy_logged`);
  return {
    importSeconds: imported.seconds,
    importRss: imported.peakRss,
    copySeconds: copied.seconds,
    copyRss: copied.peakRss,
    indexedSeconds: copiedIndexed.seconds,
    indexedRss: copiedIndexed.peakRss,
    loggedSeconds: copiedLogged.seconds,
    loggedRss: copiedLogged.peakRss,
  };
}

const MAPPING_SECTION = "## Issue 35: import with a mapping";
const HUMANEVAL_X_LANGUAGES = ["Python", "CPP", "Java", "JavaScript", "Go"];

/** Record `i` in the shape of the benchmark a shipped mapping reads, with about the synthetic record's amount of text. */
function mappedSourceRecord(mapping: string, i: number): Record<string, unknown> {
  const name = `solve_${i}`;
  const prompt = `def ${name}(values):\n    """${prose(i, 1, 380)}\n    >>> ${name}([1, 2, 3])\n    6\n    """\n`;
  const body = `    # ${prose(i, 2, 120)}\n    total = 0\n    for value in values:\n        total += value\n    return total\n`;
  const asserts = Array.from({ length: 8 }, (_, k) => `assert ${name}([${k}, ${k + 1}]) == ${2 * k + 1}`);
  if (mapping === "mbpp")
    return {
      task_id: i,
      text: prose(i, 1, 380),
      code: `def ${name}(values):\n${body}`,
      test_list: asserts,
      test_setup_code: "",
      challenge_test_list: [],
    };
  const test = `def check(candidate):\n${asserts.map((line) => `    ${line.replace(name, "candidate")}`).join("\n")}\n    # ${prose(i, 6, 120)}\n`;
  if (mapping === "humaneval")
    return { task_id: `Bench/${i}`, prompt, canonical_solution: body, test, entry_point: name };
  return {
    task_id: `${HUMANEVAL_X_LANGUAGES[i % HUMANEVAL_X_LANGUAGES.length]}/${i}`,
    prompt,
    canonical_solution: body,
    test: `${test}\ncheck(${name})\n`,
  };
}

/** Writes the source-format file and the same records already mapped (AutoCodeBench JSONL). */
async function writeMappedFiles(mappingName: string, sourceFile: string, mappedFile: string): Promise<void> {
  const mapping = resolveFieldMapping(mappingName);
  const source = createWriteStream(sourceFile);
  const mapped = createWriteStream(mappedFile);
  for (let i = 0; i < RECORD_COUNT; i++) {
    const record = mappedSourceRecord(mappingName, i);
    const result = applyFieldMapping(mapping, record);
    if (!result.ok) throw new Error(`record ${i}: ${result.message}`);
    if (!source.write(`${JSON.stringify(record)}\n`)) await once(source, "drain");
    if (!mapped.write(`${JSON.stringify(result.value)}\n`)) await once(mapped, "drain");
  }
  for (const out of [source, mapped]) {
    out.end();
    await once(out, "finish");
  }
}

/** `--mapping NAME`: the import of a mapped file against the same records in AutoCodeBench form, round by round. */
async function mainWithMapping(mappingName: string): Promise<void> {
  const mapping = resolveFieldMapping(mappingName);
  const handle = await openDatabase({ log: (message) => console.error(message) });
  const workDir = mkdtempSync(join(tmpdir(), "verity-bench-"));
  const sourceFile = join(workDir, "source.jsonl");
  const mappedFile = join(workDir, "mapped.jsonl");
  const stamp = Date.now();
  const names: string[] = [];
  const client = new pg.Client({ connectionString: handle.url });
  await client.connect();
  try {
    const { rows: versionRows } = await client.query<{ server_version: string }>("SHOW server_version");
    console.error(`Writing ${RECORD_COUNT.toLocaleString("en-US")} ${mappingName} records and their mapped form…`);
    await writeMappedFiles(mappingName, sourceFile, mappedFile);
    const importOnce = async (file: string, withMapping: boolean, round: number) => {
      const datasetName = `bench-${stamp}-${withMapping ? "mapped" : "plain"}-${round}`;
      names.push(datasetName);
      const run = await timed(() =>
        importRecords({
          actor: SYSTEM_ACTOR.cli,
          datasetName,
          source: createReadStream(file, { highWaterMark: 1024 * 1024 }),
          skipInvalid: false,
          origin: "cli",
          fileName: "records.jsonl",
          bytesTotal: statSync(file).size,
          mapping: withMapping ? mapping : null,
        }),
      );
      if (!run.result.ok || run.result.imported !== RECORD_COUNT)
        throw new Error(`the import did not take every record: ${JSON.stringify(run.result.errors.slice(0, 5))}`);
      // Each import on a table of the same size.
      await client.query(`DELETE FROM "Dataset" WHERE name = $1`, [datasetName]);
      return run;
    };
    const uptimeBefore = uptime();
    const withMapping: Awaited<ReturnType<typeof importOnce>>[] = [];
    const plain: Awaited<ReturnType<typeof importOnce>>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      console.error(`Round ${round + 1}: with the ${mappingName} mapping, then the same records as AutoCodeBench…`);
      withMapping.push(await importOnce(sourceFile, true, round));
      plain.push(await importOnce(mappedFile, false, round));
    }
    const uptimeAfter = uptime();
    console.error("Profiling read + map + validate (no database)…");
    const cpu = async (file: string, map: boolean) =>
      (
        await timed(async () => {
          for await (const item of readItems(createReadStream(file)))
            if ("value" in item)
              validateRecord(map ? (applyFieldMapping(mapping, item.value) as { value: unknown }).value : item.value);
          return null;
        })
      ).seconds;
    const mapCpu = await cpu(sourceFile, true);
    const plainCpu = await cpu(mappedFile, false);

    const n = RECORD_COUNT.toLocaleString("en-US");
    const median = (runs: { seconds: number }[]) =>
      percentile(
        runs.map((run) => run.seconds),
        50,
      );
    const each = (runs: { seconds: number }[]) => runs.map((run) => run.seconds.toFixed(2)).join(", ");
    const peak = (runs: { peakRss: number }[]) => mib(Math.max(...runs.map((run) => run.peakRss)));
    const section = [
      MAPPING_SECTION,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:import -- --mapping ${mappingName} --records ${RECORD_COUNT} --rounds ${ROUNDS}\` (${options["database-url"] ? "external PostgreSQL" : "embedded PostgreSQL in `.data/bench`"}).`,
      `${n} records in ${mappingName}'s shape (${mib(statSync(sourceFile).size)} of JSONL), imported through the shipped \`${mappingName}\` mapping, against the same records already mapped to AutoCodeBench fields (${mib(statSync(mappedFile).size)}), imported as they are; the two alternate, each into an empty dataset.`,
      "",
      `| path | records | wall clock (nearest-rank median of ${ROUNDS}) | each round (s) | records/s | peak RSS |`,
      "|---|---:|---:|---|---:|---:|",
      `| \`importRecords\` with \`mapping: ${mappingName}\` | ${n} | ${secs(median(withMapping))} | ${each(withMapping)} | ${rate(RECORD_COUNT, median(withMapping))} | ${peak(withMapping)} |`,
      `| \`importRecords\`, the same records as AutoCodeBench | ${n} | ${secs(median(plain))} | ${each(plain)} | ${rate(RECORD_COUNT, median(plain))} | ${peak(plain)} |`,
      "",
      `CPU side alone (no database): read + parse + map + validate ${secs(mapCpu)}; read + parse + validate of the mapped file ${secs(plainCpu)}.`,
      `Load: \`${uptimeBefore}\` before the rounds, \`${uptimeAfter}\` after.`,
      "",
      machineLine(describeMachine(versionRows[0].server_version)),
      "",
    ].join("\n");
    console.log(`\n${section}`);
    if (!options["no-write"]) writeBenchmarkSection(MAPPING_SECTION, section);
    benchRun.finish({
      mapping: mappingName,
      records: RECORD_COUNT,
      withMappingSeconds: median(withMapping),
      asAutoCodeBenchSeconds: median(plain),
    });
  } finally {
    await client.query(`DELETE FROM "Dataset" WHERE name = ANY($1)`, [names]).catch(() => {});
    await client.end();
    await disconnectPrisma();
    await closePgPool();
    await handle.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const handle = await openDatabase({ log: (message) => console.error(message) });
  const workDir = mkdtempSync(join(tmpdir(), "verity-bench-"));
  const file = join(workDir, "records.jsonl");
  const stamp = Date.now();
  const datasetNames = Array.from({ length: ROUNDS }, (_, round) => `bench-${stamp}-${round}`);
  const client = new pg.Client({ connectionString: handle.url });
  await client.connect();
  try {
    const { rows: versionRows } = await client.query<{ server_version: string }>("SHOW server_version");
    const postgresVersion = versionRows[0].server_version;
    await client.query(`DROP TABLE IF EXISTS bench_copy_logged`);

    console.error(`Writing ${RECORD_COUNT.toLocaleString("en-US")} records to ${file}…`);
    const generated = await timed(() => writeJsonl(file, RECORD_COUNT));
    const fileBytes = statSync(file).size;

    const uptimeBefore = uptime();
    const rounds: Round[] = [];
    for (const datasetName of datasetNames) {
      rounds.push(await runRound(client, file, fileBytes, datasetName));
      // Each round on a table of the same size: the previous round's rows go first.
      if (datasetName !== datasetNames.at(-1))
        await client.query(`DELETE FROM "Dataset" WHERE name = $1`, [datasetName]);
    }
    const uptimeAfter = uptime();

    // The record browser's question search on the last imported dataset (RECORD_COUNT records): first
    // with the trigram index's pending list as the import left it, then after it is flushed.
    const searchDataset = datasetNames.at(-1) as string;
    const admin = (
      await upsertUserFromCli({
        actor: SYSTEM_ACTOR.cli,
        email: "admin@bench-import.test",
        role: "ADMIN",
        languages: [],
      })
    ).actor;
    const terms = [`solve_${Math.floor(RECORD_COUNT / 2) + 1}(`, "maximum edge case"];
    console.error("Timing the question search…");
    const beforeFlush: { median: number; total: number }[] = [];
    for (const term of terms) beforeFlush.push(await timeSearch(admin, searchDataset, term));
    const flush = await timed(() =>
      client.query<{ pages: string }>(`SELECT gin_clean_pending_list('"Record_question_idx"'::regclass) AS pages`),
    );
    const pendingPages = flush.result.rows[0].pages;
    const afterFlush: { median: number; total: number }[] = [];
    for (const term of terms) afterFlush.push(await timeSearch(admin, searchDataset, term));

    console.error("Profiling the CPU-side stages (no database)…");
    const stages = await profileStages(file);

    const median = (pick: (round: Round) => number) => percentile(rounds.map(pick), 50);
    const importSeconds = median((round) => round.importSeconds);
    const copySeconds = median((round) => round.copySeconds);
    const indexedSeconds = median((round) => round.indexedSeconds);
    const loggedSeconds = median((round) => round.loggedSeconds);
    const ratio = copySeconds / importSeconds;
    const ratioIndexed = indexedSeconds / importSeconds;
    const ratioLogged = loggedSeconds / importSeconds;
    const machine = describeMachine(postgresVersion);
    const date = new Date().toISOString().slice(0, 10);
    const n = RECORD_COUNT.toLocaleString("en-US");
    const each = (pick: (round: Round) => number) => rounds.map((round) => pick(round).toFixed(2)).join(", ");

    const table = [
      `| path | records | wall clock (nearest-rank median of ${ROUNDS}) | each round (s) | records/s | peak RSS |`,
      "|---|---:|---:|---|---:|---:|",
      `| \`importRecords\` (JSONL file → Record, one transaction) | ${n} | ${secs(importSeconds)} | ${each((round) => round.importSeconds)} | ${rate(RECORD_COUNT, importSeconds)} | ${mib(Math.max(...rounds.map((round) => round.importRss)))} |`,
      `| COPY same rows → temp table, no indexes | ${n} | ${secs(copySeconds)} | ${each((round) => round.copySeconds)} | ${rate(RECORD_COUNT, copySeconds)} | ${mib(Math.max(...rounds.map((round) => round.copyRss)))} |`,
      `| COPY same rows → temp table with Record's indexes | ${n} | ${secs(indexedSeconds)} | ${each((round) => round.indexedSeconds)} | ${rate(RECORD_COUNT, indexedSeconds)} | ${mib(Math.max(...rounds.map((round) => round.indexedRss)))} |`,
      `| COPY same rows → ordinary (logged) table with Record's indexes | ${n} | ${secs(loggedSeconds)} | ${each((round) => round.loggedSeconds)} | ${rate(RECORD_COUNT, loggedSeconds)} | ${mib(Math.max(...rounds.map((round) => round.loggedRss)))} |`,
    ].join("\n");
    const stageTable = [
      "| stage (CPU only, no database) | wall clock | records/s |",
      "|---|---:|---:|",
      `| read + JSON parse (\`readItems\`) | ${secs(stages.parse)} | ${rate(RECORD_COUNT, stages.parse)} |`,
      `| read + parse + \`validateRecord\` (incl. sha256 key) | ${secs(stages.validate)} | ${rate(RECORD_COUNT, stages.validate)} |`,
      `| sha256 key alone (\`recordKey\`) | ${secs(stages.hash)} | ${rate(RECORD_COUNT, stages.hash)} |`,
    ].join("\n");
    const searchTable = [
      "| question search (record browser: page of 50 + count) | matches | pending list as the import left it | after `gin_clean_pending_list` |",
      "|---|---:|---:|---:|",
      ...terms.map(
        (term, index) =>
          `| \`${term}\` | ${afterFlush[index].total.toLocaleString("en-US")} | ${beforeFlush[index].median.toFixed(1)} ms | ${afterFlush[index].median.toFixed(1)} ms |`,
      ),
    ].join("\n");

    const section = [
      SECTION,
      "",
      `Run on ${date} with \`npm run bench:import -- --rounds ${ROUNDS}\` (${options["database-url"] ? "external PostgreSQL" : `embedded PostgreSQL in \`${process.env.VERITY_DATA_DIR}\``}).`,
      `${n} synthetic AutoCodeBench-shaped records (${LANGUAGES.length} languages, ≈500-char question and solution, two test functions), ${mib(fileBytes)} of JSONL, written in ${secs(generated.seconds)}. Each round imports the file into an empty dataset, then COPYs the same rows (same generator, same keys) into three scratch tables.`,
      "",
      table,
      "",
      `**Import / COPY into a temp table with Record's indexes: ${ratioIndexed.toFixed(2)}** (aim ≥ 0.9); import / COPY into an ordinary table with the same indexes: ${ratioLogged.toFixed(2)}; import / COPY with no indexes: ${ratio.toFixed(2)}.`,
      'A temp table skips the write-ahead log, so even with Record\'s indexes (unique key, btrees, trigram GIN on question) its COPY is a floor a write to "Record" does not quite reach; the ordinary table pays the same log as "Record".',
      "",
      searchTable,
      "",
      `Search timings: median of 21 runs through \`browseRecords\` (the record browser's query and its count) on the last round's ${n} records, as an admin; the trigram index had ${pendingPages} pending-list pages after the import; flushing them took ${secs(flush.seconds)} (not counted in the import).`,
      `Load: \`${uptimeBefore}\` before the rounds, \`${uptimeAfter}\` after.`,
      "",
      stageTable,
      "",
      machineLine(machine),
      "",
    ].join("\n");

    console.log(`\n${section}`);
    if (!options["no-write"]) {
      const docs = resolve("docs/benchmarks.md");
      writeBenchmarkSubsection(PARENT, SECTION, section, docs);
      console.error(`Wrote the "${SECTION.slice(4)}" subsection of ${docs}`);
    }
    benchRun.finish({
      importOverCopyIndexed: Number(ratioIndexed.toFixed(3)),
      importOverCopyLogged: Number(ratioLogged.toFixed(3)),
      importOverCopy: Number(ratio.toFixed(3)),
    });
  } finally {
    // The bench database is its own, but keep it from growing run after run.
    await client.query(`DELETE FROM "Dataset" WHERE name = ANY($1)`, [datasetNames]).catch(() => {});
    await client.query(`DROP TABLE IF EXISTS bench_copy_logged`).catch(() => {});
    await client.end();
    await disconnectPrisma();
    await closePgPool();
    await handle.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

await (options.mapping === undefined ? main() : mainWithMapping(options.mapping));
