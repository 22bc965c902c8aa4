// Import benchmark: 100,000 synthetic AutoCodeBench-shaped records through importRecords, against a
// plain COPY of the same rows, on a database of its own. Prints a Markdown table and writes the
// "## Import (issue: foundation)" section of docs/benchmarks.md.
//
//   node scripts/run-ts.mjs scripts/bench/import.ts [--records N] [--database-url URL] [--no-write]
import { once } from "node:events";
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";

import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

import { describeMachine, machineLine, writeBenchmarkSection } from "./common";

const { values: options } = parseArgs({
  options: {
    records: { type: "string", default: "100000" },
    "database-url": { type: "string" },
    "no-write": { type: "boolean", default: false },
  },
});
const RECORD_COUNT = Number(options.records);
if (!Number.isInteger(RECORD_COUNT) || RECORD_COUNT < 1) throw new Error(`--records must be a positive integer, got ${options.records}`);

// Before config is read (the modules below read it lazily): a data dir and port of its own, so the
// benchmark never touches the app's database.
if (options["database-url"]) {
  process.env.DATABASE_URL = options["database-url"];
} else {
  process.env.VERITY_DATA_DIR = ".data/bench";
  process.env.VERITY_DB_PORT = "54349";
  delete process.env.DATABASE_URL;
}

const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { openDatabase } = await import("@/lib/server/db/database");
const { importRecords } = await import("@/lib/server/db/imports");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");
const { LANGUAGES, readItems, recordKey, validateRecord } = await import("@/lib/records");

const SECTION = "## Import (issue: foundation)";
const DIFFICULTIES = ["easy", "medium", "hard", null] as const;
const WORDS = "array string integer return value input output function list map sort index count sum maximum minimum edge case empty null parse format result".split(" ");

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
  return String(value).replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}

/** The same rows importRecords writes (same generator, same key), as COPY text in ~256 KB chunks. */
async function* copyRows(datasetId: string, count: number): AsyncGenerator<string> {
  let chunk = "";
  for (let i = 0; i < count; i++) {
    const r = syntheticRecord(i);
    const fields = { language: r.language as (typeof LANGUAGES)[number], question: r.question, canonicalSolution: r.canonical_solution, demoTestFunc: r.demo_test_func, fullTestFunc: r.full_test_func };
    const row = [datasetId, recordKey(fields), i + 1, r.language, r.difficulty ?? null, r.question, r.canonical_solution, r.demo_test_func, r.full_test_func, "{}"];
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
    for await (const item of readItems(createReadStream(file))) if ("value" in item && validateRecord(item.value).ok) n++;
    return n;
  });
  const hash = await timed(async () => {
    for (let i = 0; i < RECORD_COUNT; i++) {
      const r = syntheticRecord(i);
      recordKey({ language: r.language as (typeof LANGUAGES)[number], question: r.question, canonicalSolution: r.canonical_solution, demoTestFunc: r.demo_test_func, fullTestFunc: r.full_test_func });
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

async function main(): Promise<void> {
  const handle = await openDatabase({ log: (message) => console.error(message) });
  const workDir = mkdtempSync(join(tmpdir(), "verity-bench-"));
  const file = join(workDir, "records.jsonl");
  const datasetName = `bench-${Date.now()}`;
  const client = new pg.Client({ connectionString: handle.url });
  await client.connect();
  try {
    const { rows: versionRows } = await client.query<{ server_version: string }>("SHOW server_version");
    const postgresVersion = versionRows[0].server_version;

    console.error(`Writing ${RECORD_COUNT.toLocaleString("en-US")} records to ${file}…`);
    const generated = await timed(() => writeJsonl(file, RECORD_COUNT));
    const fileBytes = statSync(file).size;

    console.error("Importing with importRecords…");
    const imported = await timed(() =>
      importRecords({ actor: SYSTEM_ACTOR.cli, datasetName, source: createReadStream(file, { highWaterMark: 1024 * 1024 }), skipInvalid: false, origin: "cli", fileName: "records.jsonl", bytesTotal: fileBytes }),
    );
    const summary = imported.result;
    if (!summary.ok || summary.imported !== RECORD_COUNT) {
      throw new Error(`the import did not take every record: ${JSON.stringify({ ...summary, errors: summary.errors.slice(0, 5) })}`);
    }
    const { rows: datasetRows } = await client.query<{ id: string }>(`SELECT id FROM "Dataset" WHERE name = $1`, [datasetName]);
    const datasetId = datasetRows[0].id;

    console.error("COPY into a scratch table…");
    await client.query(`CREATE TEMP TABLE bench_copy (LIKE "Record" INCLUDING DEFAULTS)`);
    const copied = await timed(() => copyInto(client, "bench_copy", datasetId));
    if (copied.result !== RECORD_COUNT) throw new Error(`COPY wrote ${copied.result} rows, expected ${RECORD_COUNT}`);

    // The same COPY into a table with the real table's indexes (unique key, btrees, trigram GIN):
    // shows how much of the gap is index maintenance rather than the import path.
    console.error("COPY into a scratch table with the Record indexes…");
    await client.query(`CREATE TEMP TABLE bench_copy_indexed (LIKE "Record" INCLUDING DEFAULTS INCLUDING INDEXES)`);
    const copiedIndexed = await timed(() => copyInto(client, "bench_copy_indexed", datasetId));

    console.error("Profiling the CPU-side stages (no database)…");
    const stages = await profileStages(file);

    const importRate = RECORD_COUNT / imported.seconds;
    const copyRate = RECORD_COUNT / copied.seconds;
    const ratio = importRate / copyRate;
    const machine = describeMachine(postgresVersion);
    const date = new Date().toISOString().slice(0, 10);

    const table = [
      "| path | records | wall clock | records/s | peak RSS |",
      "|---|---:|---:|---:|---:|",
      `| \`importRecords\` (JSONL file → Record, one transaction) | ${RECORD_COUNT.toLocaleString("en-US")} | ${secs(imported.seconds)} | ${rate(RECORD_COUNT, imported.seconds)} | ${mib(imported.peakRss)} |`,
      `| COPY same rows → temp table, no indexes | ${RECORD_COUNT.toLocaleString("en-US")} | ${secs(copied.seconds)} | ${rate(RECORD_COUNT, copied.seconds)} | ${mib(copied.peakRss)} |`,
      `| COPY same rows → temp table with Record's indexes | ${RECORD_COUNT.toLocaleString("en-US")} | ${secs(copiedIndexed.seconds)} | ${rate(RECORD_COUNT, copiedIndexed.seconds)} | ${mib(copiedIndexed.peakRss)} |`,
    ].join("\n");
    const stageTable = [
      "| stage (CPU only, no database) | wall clock | records/s |",
      "|---|---:|---:|",
      `| read + JSON parse (\`readItems\`) | ${secs(stages.parse)} | ${rate(RECORD_COUNT, stages.parse)} |`,
      `| read + parse + \`validateRecord\` (incl. sha256 key) | ${secs(stages.validate)} | ${rate(RECORD_COUNT, stages.validate)} |`,
      `| sha256 key alone (\`recordKey\`) | ${secs(stages.hash)} | ${rate(RECORD_COUNT, stages.hash)} |`,
      `| database side of the import (import − validate) | ${secs(Math.max(0, imported.seconds - stages.validate))} | — |`,
    ].join("\n");

    const section = [
      SECTION,
      "",
      `Run on ${date} with \`node scripts/run-ts.mjs scripts/bench/import.ts\` (embedded PostgreSQL in \`.data/bench\`, port 54349).`,
      `${RECORD_COUNT.toLocaleString("en-US")} synthetic AutoCodeBench-shaped records (${LANGUAGES.length} languages, ≈500-char question and solution, two test functions), ${mib(fileBytes)} of JSONL, written in ${secs(generated.seconds)}.`,
      "",
      table,
      "",
      `**Ratio import / COPY (no indexes): ${ratio.toFixed(2)}** (import / COPY with indexes: ${(importRate / (RECORD_COUNT / copiedIndexed.seconds)).toFixed(2)}).`,
      "A temp table is neither WAL-logged nor indexed, so the plain COPY row is a lower bound no write to \"Record\" can reach;",
      "the row with Record's indexes (unique key, btrees, trigram GIN on question) is the fair floor for the import path.",
      "",
      stageTable,
      "",
      machineLine(machine),
      "",
    ].join("\n");

    console.log(`\n${table}\n\nRatio import / COPY: ${ratio.toFixed(2)}\n\n${stageTable}\n\nMachine: ${JSON.stringify(machine)}\n`);
    if (!options["no-write"]) {
      const docs = resolve("docs/benchmarks.md");
      writeBenchmarkSection(SECTION, section, docs);
      console.error(`Wrote the "${SECTION.slice(3)}" section of ${docs}`);
    }
  } finally {
    // The bench database is its own, but keep it from growing run after run.
    await client.query(`DELETE FROM "Dataset" WHERE name = $1`, [datasetName]).catch(() => {});
    await client.end();
    await disconnectPrisma();
    await closePgPool();
    await handle.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
