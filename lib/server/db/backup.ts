import "server-only";

import { once } from "node:events";
import { createGunzip, createGzip } from "node:zlib";
import type { Readable, Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";

import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";

const FORMAT = "verity-backup 1";

/** The application's tables in the public schema (Prisma's own migration table excluded). */
async function listTables(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY table_name`,
  );
  return rows.map((row) => row.name);
}

/**
 * Writes a consistent backup of every table (one REPEATABLE READ snapshot) as gzipped text: a
 * header, then per table a `-- table NAME` line followed by its COPY text rows and `\.`. Works
 * against the embedded PostgreSQL, which ships no pg_dump. The job queue's own schema is not included.
 */
export async function writeBackup(databaseUrl: string, output: Writable): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const gzip = createGzip();
  const done = pipeline(gzip, output);
  const counts: Record<string, number> = {};
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const { rows: migrations } = await client.query<{ name: string }>(
      `SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`,
    );
    gzip.write(`${FORMAT}\n-- migrations ${migrations.map((row) => row.name).join(",")}\n`);
    for (const table of await listTables(client)) {
      gzip.write(`-- table ${table}\n`);
      const stream = client.query(copyTo(`COPY "${table}" TO STDOUT`));
      let rows = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        for (const byte of chunk) if (byte === 10) rows += 1;
        if (!gzip.write(chunk)) await once(gzip, "drain");
      }
      counts[table] = rows;
      gzip.write("\\.\n");
    }
    await client.query("COMMIT");
    gzip.end();
    await done;
    return counts;
  } catch (error) {
    gzip.destroy(error as Error);
    await done.catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * Restores a backup into a database that has the same migrations applied and no data. Everything
 * happens in one transaction: a bad file leaves the database as it was. Sequences are moved past
 * the restored ids.
 */
export async function restoreBackup(databaseUrl: string, input: Readable): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const counts: Record<string, number> = {};
  const lines = readLines(input);
  const next = async () => {
    const { value, done } = await lines.next();
    return done ? null : value;
  };
  let copy: Writable | null = null;
  try {
    if ((await next()) !== FORMAT) throw new Error("This is not a Verity backup (unknown header).");
    const migrationsLine = (await next()) ?? "";
    const { rows: migrations } = await client.query<{ name: string }>(
      `SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`,
    );
    const expected = migrationsLine.replace("-- migrations ", "");
    if (expected !== migrations.map((row) => row.name).join(",")) {
      throw new Error(
        `The backup was taken at migrations [${expected}] but this database is at [${migrations.map((row) => row.name).join(",")}]. Restore into a database migrated to the same version.`,
      );
    }
    const tables = await listTables(client);
    await client.query("BEGIN");
    // Foreign keys are checked by the source database already; tables come in name order.
    await client.query("SET LOCAL session_replication_role = replica");
    for (const table of tables) {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`);
      if (Number(rows[0].n) > 0) throw new Error(`Table "${table}" is not empty: restore into a fresh database.`);
    }
    for (let line = await next(); line !== null; line = await next()) {
      const match = /^-- table (\w+)$/.exec(line);
      if (!match || !tables.includes(match[1])) throw new Error(`Unexpected line in the backup: ${line.slice(0, 80)}`);
      const table = match[1];
      copy = client.query(copyFrom(`COPY "${table}" FROM STDIN`));
      let rows = 0;
      for (let row = await next(); row !== "\\."; row = await next()) {
        if (row === null) throw new Error(`The backup ends inside table "${table}".`);
        rows += 1;
        if (!copy.write(`${row}\n`)) await once(copy, "drain");
      }
      copy.end();
      await once(copy, "finish");
      copy = null;
      counts[table] = rows;
    }
    const { rows: sequences } = await client.query<{ table: string; column: string }>(
      `SELECT table_name AS table, column_name AS column FROM information_schema.columns WHERE table_schema = 'public' AND column_default LIKE 'nextval%'`,
    );
    for (const { table, column } of sequences) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('"${table}"', '${column}'), coalesce((SELECT max("${column}") FROM "${table}"), 0) + 1, false)`,
      );
    }
    await client.query("COMMIT");
    return counts;
  } catch (error) {
    // A COPY still under way holds the connection: abort it (CopyFail) before rolling back.
    if (copy) {
      copy.destroy(error as Error);
      await finished(copy).catch(() => {});
    }
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    input.destroy();
    await client.end();
  }
}

/**
 * The lines of a gzipped stream. Unlike readline over `pipe`, a read or decompression error (a
 * truncated or damaged file) rejects the next line instead of leaving the reader waiting forever.
 */
async function* readLines(input: Readable): AsyncGenerator<string> {
  const gunzip = createGunzip();
  // pipeline destroys gunzip with any error of either stream; the loop below then throws it.
  pipeline(input, gunzip).catch(() => {});
  gunzip.setEncoding("utf8");
  let rest = "";
  try {
    for await (const chunk of gunzip as AsyncIterable<string>) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop()!;
      yield* parts;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "Z_BUF_ERROR" || code === "Z_DATA_ERROR")
      throw new Error(`The backup file is damaged or cut short (${(error as Error).message}).`);
    throw error;
  }
  if (rest !== "") yield rest;
}
