import "server-only";

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

import pg from "pg";

import { migrationTimestamp } from "./migrate";

// The SQL rules (hand-written functions and triggers) in force, one file each under prisma/sql:
// functions/<name>.sql holds a CREATE OR REPLACE FUNCTION, triggers/<table>.<trigger>.sql a
// CREATE TRIGGER. Migrations carry the files to databases (`npm run db:sql-migration` writes
// them); the migrations test holds the files and the migrated database to the same definitions.
const SQL_DIR = resolve(process.cwd(), "prisma", "sql");
const MIGRATIONS_DIR = resolve(process.cwd(), "prisma", "migrations");

type RuleFile = {
  /** Relative to the SQL folder: functions/<name>.sql or triggers/<table>.<trigger>.sql. */
  path: string;
  kind: "function" | "trigger";
  name: string;
  /** The trigger's table; undefined for a function. */
  table?: string;
  /** The whole file: header comment and statement. */
  text: string;
};

/** A rule the files and the database do not agree on; `problem` says how. */
export type RuleDrift = {
  path: string;
  problem: "no file" | "no definition in the database" | "differs" | "not created by its file" | "fails";
  detail?: string;
};

const FUNCTION_FILE = /^([a-z_][a-z0-9_]*)\.sql$/;
const TRIGGER_FILE = /^([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)\.sql$/;

/** Every rule file under `sqlDir`, in path order; a misnamed file is an error, not skipped. */
export function readRuleFiles(sqlDir = SQL_DIR): RuleFile[] {
  const files: RuleFile[] = [];
  for (const [folder, kind] of [
    ["functions", "function"],
    ["triggers", "trigger"],
  ] as const) {
    const dir = join(sqlDir, folder);
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir).sort()) {
      const text = readFileSync(join(dir, entry), "utf8");
      const path = `${folder}/${entry}`;
      const match = (kind === "function" ? FUNCTION_FILE : TRIGGER_FILE).exec(entry);
      if (!match)
        throw new Error(
          `prisma/sql/${path}: name it ${kind === "function" ? "functions/<name>.sql" : "triggers/<table>.<trigger>.sql"}.`,
        );
      files.push(
        kind === "function"
          ? { path, kind, name: match[1], text }
          : { path, kind, name: match[2], table: match[1], text },
      );
    }
  }
  return files;
}

type Definition = { path: string; definition: string; drop: string };

// The definitions in force, as PostgreSQL prints them back, keyed by the path of their file.
// Functions installed by an extension (pg_trgm's) are not ours.
const DEFINITIONS = `
  SELECT 'functions/' || p.proname || '.sql' AS path, pg_get_functiondef(p.oid) AS definition,
         'DROP FUNCTION IF EXISTS ' || p.oid::regprocedure::text AS drop
    FROM pg_proc p
   WHERE p.pronamespace = 'public'::regnamespace AND p.prokind IN ('f', 'p')
     AND NOT EXISTS (SELECT 1 FROM pg_depend d
                      WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
  UNION ALL
  SELECT 'triggers/' || c.relname || '.' || t.tgname || '.sql', pg_get_triggerdef(t.oid),
         format('DROP TRIGGER IF EXISTS %I ON %I', t.tgname, c.relname)
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
   WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace AND c.relname <> '_prisma_migrations'
  ORDER BY path, definition`;

async function definitionsInForce(client: pg.ClientBase): Promise<Map<string, Definition>> {
  const byPath = new Map<string, Definition>();
  for (const row of (await client.query<Definition>(DEFINITIONS)).rows) {
    const seen = byPath.get(row.path);
    // Two functions of one name (overloads) share a file; both definitions are compared.
    byPath.set(
      row.path,
      seen
        ? { path: row.path, definition: `${seen.definition}\n${row.definition}`, drop: `${seen.drop};\n${row.drop}` }
        : row,
    );
  }
  return byPath;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The SQL that puts one file's definition in force: a trigger is dropped and created again. */
function statementOf(file: RuleFile): string {
  const text = file.text.trimEnd();
  const lastLine = text.slice(text.lastIndexOf("\n") + 1).trim();
  const terminated = lastLine.startsWith("--") || text.endsWith(";") ? text : `${text};`;
  return file.kind === "trigger"
    ? `DROP TRIGGER IF EXISTS ${quoteIdent(file.name)} ON ${quoteIdent(file.table!)};\n${terminated}\n`
    : `${terminated}\n`;
}

/**
 * Runs every file over the database inside a savepoint and compares what PostgreSQL then holds
 * with what it held before: a file that would change nothing matches its definition exactly
 * (a function's body byte for byte; its header and a trigger as PostgreSQL normalises them).
 * Everything is rolled back to a savepoint, so `client` must be inside a transaction.
 */
async function compareWithFiles(client: pg.ClientBase, files: RuleFile[]): Promise<RuleDrift[]> {
  const drift: RuleDrift[] = [];
  await client.query("SAVEPOINT rules_compare");
  try {
    const before = await definitionsInForce(client);
    for (const file of files) {
      await client.query("SAVEPOINT rule_file");
      try {
        await client.query(statementOf(file));
        await client.query("RELEASE SAVEPOINT rule_file");
      } catch (error) {
        await client.query("ROLLBACK TO SAVEPOINT rule_file");
        drift.push({ path: file.path, problem: "fails", detail: (error as Error).message });
      }
    }
    const after = await definitionsInForce(client);
    const filePaths = new Set(files.map((file) => file.path));
    for (const file of files) {
      if (drift.some((entry) => entry.path === file.path)) continue;
      const now = after.get(file.path);
      const then = before.get(file.path);
      if (!now) drift.push({ path: file.path, problem: "not created by its file" });
      else if (!then) drift.push({ path: file.path, problem: "no definition in the database" });
      else if (now.definition !== then.definition)
        drift.push({ path: file.path, problem: "differs", detail: firstDifference(then.definition, now.definition) });
    }
    for (const path of new Set([...before.keys(), ...after.keys()]))
      if (!filePaths.has(path))
        drift.push(
          before.has(path)
            ? { path, problem: "no file" }
            : { path, problem: "not created by its file", detail: "a file of another name creates it" },
        );
  } finally {
    await client.query("ROLLBACK TO SAVEPOINT rules_compare");
    await client.query("RELEASE SAVEPOINT rules_compare");
  }
  return drift.sort((a, b) => a.path.localeCompare(b.path));
}

/** The first line where the database's definition and the file's part, for the failure message. */
function firstDifference(inForce: string, fromFile: string): string {
  const a = inForce.split("\n");
  const b = fromFile.split("\n");
  const line = a.findIndex((text, index) => text !== b[index]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1} of the definition: database ${JSON.stringify(a[at] ?? "")}, file ${JSON.stringify(b[at] ?? "")}`;
}

/** Runs `run` in a transaction that is always rolled back: nothing here changes the database. */
async function inRolledBackTransaction<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    return await run(client);
  } finally {
    await client.query("ROLLBACK").catch(() => {});
    await client.end();
  }
}

/** Which rule files disagree with the (migrated) database at `databaseUrl`; nothing is changed. */
export function compareRuleFiles(databaseUrl: string, files: RuleFile[] = readRuleFiles()): Promise<RuleDrift[]> {
  return inRolledBackTransaction(databaseUrl, (client) => compareWithFiles(client, files));
}

/**
 * The migration that takes a database from `drift` to the files: changed and new functions,
 * then changed and new triggers (dropped and created again), then what lost its file is dropped.
 */
function composeSqlMigration(drift: RuleDrift[], files: RuleFile[], drops: ReadonlyMap<string, string>): string {
  const changed = drift
    .filter((entry) => entry.problem === "differs" || entry.problem === "no definition in the database")
    .map((entry) => files.find((file) => file.path === entry.path)!);
  const removed = drift.filter((entry) => entry.problem === "no file").map((entry) => entry.path);
  const parts = [
    "-- Written by `npm run db:sql-migration` from prisma/sql, which holds each rule's current definition.\n",
  ];
  for (const path of removed.filter((path) => path.startsWith("triggers/")))
    parts.push(`-- prisma/sql/${path} was removed.\n${drops.get(path)};\n`);
  for (const kind of ["function", "trigger"] as const)
    for (const file of changed.filter((file) => file.kind === kind))
      parts.push(`-- prisma/sql/${file.path}\n${statementOf(file)}`);
  for (const path of removed.filter((path) => path.startsWith("functions/")))
    parts.push(`-- prisma/sql/${path} was removed.\n${drops.get(path)};\n`);
  return parts.join("\n");
}

/** The migration folder's name: timestamp, `sql` and what it changes (shortened past a few). */
export function sqlMigrationName(paths: string[], date = new Date()): string {
  const names = paths.map((path) => path.replace(/^(functions|triggers)\//, "").replace(/\.sql$/, ""));
  const joined = names.join("_");
  const label = joined.length <= 60 ? joined : `${names[0]}_and_${names.length - 1}_more`;
  return `${migrationTimestamp(date)}_sql_${label.replace(/[^A-Za-z0-9_]/g, "_")}`;
}

export class SqlRulesError extends Error {}

/**
 * Compares the files with the database at `databaseUrl` (migrated from prisma/migrations and
 * nothing else) and writes a migration folder that puts the changed files in force. The migration
 * is tried on the database inside a transaction that is rolled back, and must leave no file out
 * of step. Returns the folder and the files it carries, or null when nothing changed.
 */
export async function writeSqlMigration({
  databaseUrl,
  sqlDir = SQL_DIR,
  migrationsDir = MIGRATIONS_DIR,
  date = new Date(),
}: {
  databaseUrl: string;
  sqlDir?: string;
  migrationsDir?: string;
  date?: Date;
}): Promise<{ folder: string; paths: string[] } | null> {
  const files = readRuleFiles(sqlDir);
  return inRolledBackTransaction(databaseUrl, async (client) => {
    const drift = await compareWithFiles(client, files);
    const failing = drift.filter((entry) => entry.problem === "fails" || entry.problem === "not created by its file");
    if (failing.length > 0)
      throw new SqlRulesError(
        failing
          .map(
            (entry) =>
              `prisma/sql/${entry.path}: ${entry.problem}${entry.detail ? ` (${entry.detail})` : ""}` +
              (entry.problem === "fails"
                ? ". A change CREATE OR REPLACE cannot make (a new return type or argument names) needs a hand-written DROP FUNCTION first."
                : ""),
          )
          .join("\n"),
      );
    if (drift.length === 0) return null;
    const drops = new Map([...(await definitionsInForce(client)).values()].map((row) => [row.path, row.drop]));
    const sql = composeSqlMigration(drift, files, drops);
    try {
      await client.query(sql);
    } catch (error) {
      throw new SqlRulesError(`The migration does not apply: ${(error as Error).message}`);
    }
    const left = await compareWithFiles(client, files);
    if (left.length > 0)
      throw new SqlRulesError(
        `The migration would leave ${left.map((entry) => `prisma/sql/${entry.path} (${entry.problem})`).join(", ")} out of step.`,
      );
    const paths = drift.map((entry) => entry.path);
    const folder = sqlMigrationName(paths, date);
    mkdirSync(join(migrationsDir, folder), { recursive: true });
    writeFileSync(join(migrationsDir, folder, "migration.sql"), sql);
    return { folder, paths };
  });
}
