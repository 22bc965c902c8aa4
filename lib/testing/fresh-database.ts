import pg from "pg";
import { inject } from "vitest";

/**
 * Runs `run` with the URL of a new, empty database on the test server, owned by the app's role
 * (nothing migrated), and drops it afterwards. For tests of migrations, backups and restores,
 * which need a database other than their process's copy of the migrated one.
 */
export async function withFreshDatabase<T>(label: string, run: (url: string) => Promise<T>): Promise<T> {
  const target = new URL(process.env.DATABASE_URL!);
  // Unique on the server, which runs two workers' files at once.
  const name = `${label}_${process.env.VITEST_POOL_ID ?? 0}_${Date.now()}`;
  target.pathname = `/${name}`;
  const superuser = new pg.Client({ connectionString: inject("adminDatabaseUrl") });
  await superuser.connect();
  try {
    await superuser.query(`CREATE DATABASE "${name}" OWNER "${decodeURIComponent(target.username)}"`);
    return await run(target.toString());
  } finally {
    await superuser.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await superuser.end();
  }
}

/** Runs a whole SQL script on the database at `url`, on a connection of its own. */
export async function runSql(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
