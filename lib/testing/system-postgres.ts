// Debian's PostgreSQL server (apt `postgresql`), started for a test run on its own port and data
// folder, never the system service. It is set up the way docs/deploy.md tells a team to prepare an
// external server: a superuser creates a login role for the app, a database that role owns, and
// the `pg_trgm` extension. The app connects over TCP as that role, which is no superuser.
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

import pg from "pg";

export type SystemPostgres = {
  /** The app's role on its own database (what DATABASE_URL is set to). */
  url: string;
  /** The superuser on the `postgres` database, for tests that create databases. */
  adminUrl: string;
  /** server_version as the server reports it, e.g. "15.14 (Debian 15.14-0+deb12u1)". */
  version: string;
  /** The folder holding the cluster and its log, removed by stop(). */
  root: string;
  stop(): void;
};

const APP_ROLE = "verity";
const APP_DATABASE = "verity";
const SUPERUSER = "postgres";

/** The newest Debian PostgreSQL's bin folder, or VERITY_PG_BIN when set. */
function systemPostgresBin(): string {
  if (process.env.VERITY_PG_BIN) return process.env.VERITY_PG_BIN;
  const base = "/usr/lib/postgresql";
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(
      "No Debian PostgreSQL server found in /usr/lib/postgresql: `apt-get install postgresql`, or set VERITY_PG_BIN.",
    );
  return join(base, versions[0], "bin");
}

/**
 * PostgreSQL refuses to run as root, so under root the server runs as the OS user `postgres` (the
 * Debian package creates it) and owns the folder; otherwise as the current user.
 */
function serverUser(): { name: string; uid: number; gid: number } | null {
  if (userInfo().uid !== 0) return null;
  const uid = Number(execFileSync("id", ["-u", SUPERUSER], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", SUPERUSER], { encoding: "utf8" }).trim());
  return { name: SUPERUSER, uid, gid };
}

function runAsServerUser(user: ReturnType<typeof serverUser>, command: string, args: string[]): void {
  const [file, argv] = user ? ["runuser", ["-u", user.name, "--", command, ...args]] : [command, args];
  const result = spawnSync(file, argv, { encoding: "utf8", cwd: tmpdir() });
  if (result.status !== 0)
    throw new Error(
      `${command} failed (${result.status ?? result.signal}): ${(result.stderr || result.stdout).trim().slice(-2000)}`,
    );
}

/**
 * Creates a cluster in a fresh temporary folder, starts it on 127.0.0.1:`port`, and provisions the
 * app's role, database and extension. Throws (after cleaning up) when the server cannot start,
 * with the end of its log.
 */
export async function startSystemPostgres({
  port,
  bin = systemPostgresBin(),
}: {
  port: number;
  bin?: string;
}): Promise<SystemPostgres> {
  const root = mkdtempSync(join(tmpdir(), "verity-pg-"));
  const user = serverUser();
  const dataDir = join(root, "data");
  const log = join(root, "server.log");
  const superPassword = randomBytes(18).toString("base64url");
  const appPassword = randomBytes(18).toString("base64url");
  const passwordFile = join(root, "superuser-password");
  writeFileSync(passwordFile, `${superPassword}\n`, { mode: 0o600 });
  if (user) {
    chownSync(root, user.uid, user.gid);
    chownSync(passwordFile, user.uid, user.gid);
  }
  let isStarted = false;
  const stop = () => {
    process.removeListener("exit", stop);
    if (isStarted) {
      try {
        runAsServerUser(user, join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } catch {
        // Already gone; the folder is removed below either way.
      }
      isStarted = false;
    }
    rmSync(root, { recursive: true, force: true });
  };
  // A run that ends without its teardown (an uncaught error, Ctrl+C) still stops the server.
  process.once("exit", stop);
  try {
    runAsServerUser(user, join(bin, "initdb"), [
      "-D",
      dataDir,
      "-U",
      SUPERUSER,
      "--auth=scram-sha-256",
      `--pwfile=${passwordFile}`,
      "--encoding=UTF8",
      "--locale=C.UTF-8",
      "--no-sync",
    ]);
    rmSync(passwordFile);
    // TCP on loopback only; the unix socket stays inside the private folder.
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${root} -c max_connections=200`;
    runAsServerUser(user, join(bin, "pg_ctl"), ["-D", dataDir, "-l", log, "-o", options, "-w", "-t", "60", "start"]);
    isStarted = true;
    const adminUrl = `postgresql://${SUPERUSER}:${superPassword}@127.0.0.1:${port}/postgres`;
    const version = await provision(adminUrl, appPassword);
    return {
      url: `postgresql://${APP_ROLE}:${appPassword}@127.0.0.1:${port}/${APP_DATABASE}`,
      adminUrl,
      version,
      root,
      stop,
    };
  } catch (error) {
    const tail = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").slice(-5).join("\n") : "";
    stop();
    throw new Error(
      `Could not start Debian's PostgreSQL on port ${port}: ${error instanceof Error ? error.message : String(error)}${tail ? `\n${tail}` : ""}`,
    );
  }
}

/**
 * What docs/deploy.md §1 asks of the database's administrator: a login role that is no superuser,
 * a database it owns, and pg_trgm created by the superuser. Returns the server's version.
 */
async function provision(adminUrl: string, appPassword: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE USER ${APP_ROLE} PASSWORD ${admin.escapeLiteral(appPassword)}`);
    await admin.query(`CREATE DATABASE ${APP_DATABASE} OWNER ${APP_ROLE}`);
    const { rows } = await admin.query<{ server_version: string; num: number }>(
      "SELECT current_setting('server_version') AS server_version, current_setting('server_version_num')::int AS num",
    );
    // `verity restore` turns foreign-key triggers off for its transaction (the grant exists from 15 on).
    if (rows[0].num >= 150000) await admin.query(`GRANT SET ON PARAMETER session_replication_role TO ${APP_ROLE}`);
    const database = new pg.Client({ connectionString: adminUrl.replace(/\/postgres$/, `/${APP_DATABASE}`) });
    await database.connect();
    try {
      await database.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    } finally {
      await database.end();
    }
    return rows[0].server_version;
  } finally {
    await admin.end();
  }
}
