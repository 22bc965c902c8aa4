import "server-only";

import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import pg from "pg";

/** The cluster's bootstrap superuser (initdb --username). Used only to set up the app's role. */
export const SUPERUSER = "verity";
/** The role the app, the CLI and the workers connect as: owns its database, is no superuser. */
export const APP_ROLE = "verity_app";
const DATABASE = "verity";
/** Clusters created before the password file existed gave the superuser this password; it is tried once to rotate it away. */
const LEGACY_PASSWORD = "verity";
const PASSWORD_FILE = "postgres-passwords.json";

export type ClusterPasswords = { superuser: string; app: string };

/** The cluster's passwords, or null when none were generated yet (a data dir from an older Verity). */
export function readPasswords(dataDir: string): ClusterPasswords | null {
  const file = join(dataDir, PASSWORD_FILE);
  if (!existsSync(file)) return null;
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<ClusterPasswords>;
  if (typeof parsed.superuser !== "string" || typeof parsed.app !== "string")
    throw new Error(`${file} is damaged: it should hold the "superuser" and "app" passwords.`);
  return { superuser: parsed.superuser, app: parsed.app };
}

/** Reads the cluster's passwords, generating random ones into a file only this OS user can read (0600) the first time. */
export function readOrCreatePasswords(dataDir: string): ClusterPasswords {
  const existing = readPasswords(dataDir);
  if (existing) return existing;
  const fresh: ClusterPasswords = {
    superuser: randomBytes(24).toString("base64url"),
    app: randomBytes(24).toString("base64url"),
  };
  writeFileSync(join(dataDir, PASSWORD_FILE), `${JSON.stringify(fresh)}\n`, { mode: 0o600, flag: "wx" });
  return fresh;
}

/** A URL over the unix socket in `socketDir` (the server listens on no TCP port). */
export function socketUrl(
  socketDir: string,
  port: number,
  user: string,
  password: string,
  database = DATABASE,
): string {
  return `postgresql://${user}:${encodeURIComponent(password)}@localhost:${port}/${database}?host=${encodeURIComponent(socketDir)}`;
}

/**
 * Run by the process that starts the server: makes sure the app's role and database exist, the
 * extensions the migrations use are installed (only a superuser may), and that the app's role owns
 * everything it migrates. A cluster from an older Verity (superuser with the fixed password, all
 * tables owned by the superuser) is upgraded here: its superuser gets the random password, and its
 * tables, types, functions and the job queue's schema are handed to the app's role.
 */
export async function provisionAppRole(socketDir: string, port: number, passwords: ClusterPasswords): Promise<void> {
  const admin = await connectAsSuperuser(socketDir, port, passwords.superuser, "postgres");
  try {
    const app = admin.escapeIdentifier(APP_ROLE);
    const password = admin.escapeLiteral(passwords.app);
    const { rowCount: hasRole } = await admin.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [APP_ROLE]);
    await admin.query(
      `${hasRole ? "ALTER" : "CREATE"} ROLE ${app} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${password}`,
    );
    const { rowCount: hasDatabase } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    // Owning its database makes the role owner of the public schema (and lets pg-boss create its own).
    await admin.query(
      hasDatabase ? `ALTER DATABASE "${DATABASE}" OWNER TO ${app}` : `CREATE DATABASE "${DATABASE}" OWNER ${app}`,
    );
    // `verity restore` loads tables in name order with foreign-key triggers off for its transaction.
    await admin.query(`GRANT SET ON PARAMETER session_replication_role TO ${app}`);
  } finally {
    await admin.end();
  }
  const database = await connectAsSuperuser(socketDir, port, passwords.superuser, DATABASE);
  try {
    await database.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    await handOverObjects(database);
  } finally {
    await database.end();
  }
}

async function connectAsSuperuser(
  socketDir: string,
  port: number,
  password: string,
  database: string,
): Promise<pg.Client> {
  const connect = async (secret: string) => {
    const client = new pg.Client({ connectionString: socketUrl(socketDir, port, SUPERUSER, secret, database) });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
  };
  try {
    return await connect(password);
  } catch (error) {
    if ((error as { code?: string }).code !== "28P01") throw error;
  }
  const client = await connect(LEGACY_PASSWORD).catch((error: unknown) => {
    throw new Error(
      `The embedded PostgreSQL refused the superuser password kept in the data dir (${PASSWORD_FILE}); was the file replaced? (${String(error)})`,
    );
  });
  await client.query(`ALTER ROLE "${SUPERUSER}" PASSWORD ${client.escapeLiteral(password)}`);
  return client;
}

/**
 * Gives the app's role every schema, table, view, sequence, type and function that the superuser
 * owns outside the system schemas, except those belonging to an extension. Only a cluster from an
 * older Verity has any; on others the query finds nothing.
 */
async function handOverObjects(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ statement: string }>(
    `WITH owner AS (SELECT oid FROM pg_roles WHERE rolname = $1),
     user_schemas AS (SELECT oid, nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'),
     not_extension AS (SELECT oid FROM pg_class UNION ALL SELECT oid FROM pg_type UNION ALL SELECT oid FROM pg_proc EXCEPT SELECT objid FROM pg_depend WHERE deptype = 'e')
     SELECT format('ALTER SCHEMA %I OWNER TO %I', nspname, $2::text) AS statement FROM pg_namespace
       WHERE nspowner = (SELECT oid FROM owner) AND oid IN (SELECT oid FROM user_schemas) AND nspname <> 'public'
     UNION ALL
     SELECT format('ALTER TABLE %s OWNER TO %I', c.oid::regclass, $2::text) FROM pg_class c JOIN user_schemas n ON n.oid = c.relnamespace
       WHERE c.relowner = (SELECT oid FROM owner) AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.oid IN (SELECT oid FROM not_extension)
     UNION ALL
     SELECT format('ALTER SEQUENCE %s OWNER TO %I', c.oid::regclass, $2::text) FROM pg_class c JOIN user_schemas n ON n.oid = c.relnamespace
       WHERE c.relowner = (SELECT oid FROM owner) AND c.relkind = 'S' AND c.oid IN (SELECT oid FROM not_extension)
         AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))
     UNION ALL
     SELECT format('ALTER %s %s OWNER TO %I', CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.oid::regtype, $2::text) FROM pg_type t JOIN user_schemas n ON n.oid = t.typnamespace
       WHERE t.typowner = (SELECT oid FROM owner) AND t.typtype IN ('e', 'd') AND t.oid IN (SELECT oid FROM not_extension)
     UNION ALL
     SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, $2::text) FROM pg_proc p JOIN user_schemas n ON n.oid = p.pronamespace
       WHERE p.proowner = (SELECT oid FROM owner) AND p.prokind IN ('f', 'p') AND p.oid IN (SELECT oid FROM not_extension)`,
    [SUPERUSER, APP_ROLE],
  );
  // Tables first: moving a table moves its indexes and the sequences of its columns with it.
  for (const { statement } of rows) await client.query(statement);
}
