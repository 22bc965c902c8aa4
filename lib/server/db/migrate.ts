import "server-only";

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as engineBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";

import { assertSupportedServer } from "./server-version";

const PRISMA_DIR = resolve(process.cwd(), "prisma");
const MIGRATIONS_DIR = join(PRISMA_DIR, "migrations");
const SCHEMA_PATH = join(PRISMA_DIR, "schema.prisma");
const LOCKFILE = "migration_lock.toml";
// schema.prisma as of the newest migration; the next migration is the diff from it.
const SNAPSHOT_PATH = join(MIGRATIONS_DIR, "schema.snapshot.prisma");

type Engine = Awaited<ReturnType<typeof engineBindings.SchemaEngine.new>>;

let wasmReady: Promise<void> | undefined;

/**
 * Loads Prisma's schema engine compiled to WebAssembly. The package imports its `.wasm`
 * bundler-style, which Node cannot do, so the module is instantiated here by hand.
 */
function loadWasm(): Promise<void> {
  wasmReady ??= (async () => {
    const require = createRequire(import.meta.url);
    const bindingsFile = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = readFileSync(join(dirname(bindingsFile), "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": engineBindings });
    engineBindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
  })();
  return wasmReady;
}

/**
 * adapter-pg runs a migration script one statement at a time, split at every ";", which cuts the
 * body of a hand-written SQL function apart. PostgreSQL runs a whole script itself, in one simple
 * query (one implicit transaction), as Prisma's native engine does.
 */
function runningWholeScripts(factory: PrismaPg, pool: pg.Pool): PrismaPg {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const onError = adapter["onError"].bind(adapter);
    return Object.assign(adapter, {
      async executeScript(script: string) {
        await pool.query(script).catch(onError);
      },
    });
  };
  return factory;
}

async function withEngine<T>(databaseUrl: string, run: (engine: Engine) => Promise<T>): Promise<T> {
  await loadWasm();
  // Our own pool, closed at the end: the engine takes a session-level advisory lock while it
  // migrates, and a connection left open in the pool could keep it from the next process.
  const pool = new pg.Pool({ connectionString: databaseUrl });
  const adapter = bindMigrationAwareSqlAdapterFactory(runningWholeScripts(new PrismaPg(pool), pool));
  const schema = readFileSync(SCHEMA_PATH, "utf8");
  const engine = await engineBindings.SchemaEngine.new({ datamodels: [[SCHEMA_PATH, schema]] }, () => {}, adapter);
  try {
    return await run(engine);
  } finally {
    engine.free();
    await pool.end();
  }
}

function migrationsList() {
  const directories = existsSync(MIGRATIONS_DIR)
    ? readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
    : [];
  const lockPath = join(MIGRATIONS_DIR, LOCKFILE);
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: LOCKFILE, content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: directories.map((name) => {
      const file = join(MIGRATIONS_DIR, name, "migration.sql");
      return {
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: existsSync(file)
            ? { tag: "ok" as const, value: readFileSync(file, "utf8") }
            : { tag: "error" as const, value: `${file} is missing` },
        },
      };
    }),
  };
}

const noFilters = { externalTables: [], externalEnums: [] };

/**
 * Applies the migrations in prisma/migrations that the database has not seen; returns their names.
 * A server older than Verity supports is refused first, before anything is written.
 */
export async function applyMigrations(databaseUrl: string): Promise<string[]> {
  await assertSupportedServer(databaseUrl);
  return withEngine(databaseUrl, async (engine) => {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: migrationsList(),
      filters: noFilters,
    });
    return appliedMigrationNames;
  });
}

/**
 * The SQL that creates schema.prisma in an empty database, straight from the schema rather than
 * through the migrations; the drift test compares the two results. (Introspecting a live database
 * would be the direct check, but the WebAssembly engine cannot read PostgreSQL's catalog.)
 */
export async function schemaCreationSql(databaseUrl: string): Promise<string> {
  const schema = readFileSync(SCHEMA_PATH, "utf8");
  return withEngine(databaseUrl, async (engine) => {
    const diff = await engine.diff({
      from: { tag: "empty" },
      to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: schema }] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    return diff.stdout ?? "";
  });
}

/**
 * Writes a new migration folder with the SQL that takes the schema as of the last migration
 * (kept beside the migrations as a snapshot) to schema.prisma, and moves the snapshot forward.
 * A datamodel-to-datamodel diff needs no database: the engine's createMigration and introspection
 * paths need a shadow-database factory or catalog types the WebAssembly build lacks.
 * Returns the folder name, or null when nothing changed.
 */
export async function createMigration(databaseUrl: string, name: string): Promise<string | null> {
  const schema = readFileSync(SCHEMA_PATH, "utf8");
  const previous = existsSync(SNAPSHOT_PATH) ? readFileSync(SNAPSHOT_PATH, "utf8") : null;
  // The engine insists on a connection even for a datamodel-only diff; nothing is written to it.
  return withEngine(databaseUrl, async (engine) => {
    const diff = await engine.diff({
      from:
        previous === null
          ? { tag: "empty" }
          : { tag: "schemaDatamodel", files: [{ path: SNAPSHOT_PATH, content: previous }] },
      to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: schema }] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    const script = diff.stdout ?? "";
    if (isEmptyMigration(script)) return null;
    const folder = `${migrationTimestamp()}_${name}`;
    mkdirSync(join(MIGRATIONS_DIR, folder), { recursive: true });
    writeFileSync(join(MIGRATIONS_DIR, folder, "migration.sql"), script);
    writeFileSync(SNAPSHOT_PATH, schema);
    const lockPath = join(MIGRATIONS_DIR, LOCKFILE);
    if (!existsSync(lockPath)) writeFileSync(lockPath, 'provider = "postgresql"\n');
    return folder;
  });
}

function isEmptyMigration(script: string): boolean {
  return script.split("\n").every((line) => line.trim() === "" || line.trim().startsWith("--"));
}

/** Prisma's migration folder prefix: UTC yyyyMMddHHmmss. */
export function migrationTimestamp(date = new Date()): string {
  return date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}
