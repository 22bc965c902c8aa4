// Vitest global setup for *.int.test.ts: a real PostgreSQL whose `verity` database is migrated
// from scratch once and serves as a template; each vitest worker gets its own copy of it
// (workerDatabaseName, cloned here before any file runs), so two files on two workers never share
// rows. By default the embedded PostgreSQL 18 on its own folder; with VERITY_TEST_POSTGRES=system,
// Debian's server (`apt-get install postgresql`, 15 on Debian 12; VERITY_PG_BIN picks another) in a
// temporary folder, set up as docs/deploy.md says.
//
// The two integration projects (vitest.config.ts: the parallel one and the serial one that runs
// after it) both name this file; they share one server, started by whichever project sets up first
// and stopped when the last one tears down.
import { rmSync } from "node:fs";
import { join } from "node:path";

import pg from "pg";
import type { TestProject } from "vitest/node";

import { startEmbeddedPostgres } from "@/lib/server/db/embedded-postgres";
import { readPasswords, socketUrl, SUPERUSER } from "@/lib/server/db/embedded-roles";
import { applyMigrations } from "@/lib/server/db/migrate";

import { startSystemPostgres } from "./system-postgres";
import { workerDatabaseName } from "./worker-database";

const SERVERS = ["embedded", "system"] as const;

type Server = { templateUrl: string; adminUrl: string; stop: () => Promise<void> | void };

async function startServer(): Promise<Server> {
  const port = Number(process.env.VERITY_TEST_DB_PORT ?? 54339);
  const choice = process.env.VERITY_TEST_POSTGRES || "embedded";
  if (!SERVERS.includes(choice as (typeof SERVERS)[number]))
    throw new Error(`VERITY_TEST_POSTGRES must be one of ${SERVERS.join(", ")} (got "${choice}").`);
  if (choice === "system") {
    const server = await startSystemPostgres({ port });
    console.log(`Integration tests on Debian's PostgreSQL ${server.version} (port ${port}).`);
    try {
      await applyMigrations(server.url);
    } catch (error) {
      server.stop();
      throw error;
    }
    return { templateUrl: server.url, adminUrl: server.adminUrl, stop: () => server.stop() };
  }

  const dataDir = join(process.cwd(), ".data", "test-integration");
  rmSync(dataDir, { recursive: true, force: true });
  const database = await startEmbeddedPostgres({ dataDir, port });
  await applyMigrations(database.url);
  return {
    templateUrl: database.url,
    // The app's role may not create databases; the workers' copies and tests that need a second
    // database use the superuser.
    adminUrl: socketUrl(join(dataDir, "postgres"), port, SUPERUSER, readPasswords(dataDir)!.superuser, "postgres"),
    stop: async () => {
      await database.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Copies the migrated template once per worker, owned by the app's role. CREATE DATABASE … TEMPLATE
 * needs nobody connected to the template: the migrations have closed their connections, and the
 * tests never open one (setup-integration.ts points them at their worker's copy).
 */
async function cloneForWorkers(server: Server, cloned: Set<number>, workers: number): Promise<void> {
  const template = new URL(server.templateUrl);
  const templateName = decodeURIComponent(template.pathname.slice(1));
  const owner = decodeURIComponent(template.username);
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    for (let poolId = 1; poolId <= workers; poolId++) {
      if (cloned.has(poolId)) continue;
      const name = workerDatabaseName(templateName, poolId);
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName}" OWNER "${owner}"`);
      cloned.add(poolId);
    }
  } finally {
    await admin.end();
  }
}

type Shared = { server: Promise<Server>; cloned: Set<number>; users: number };
const SHARED = Symbol.for("verity.integration-postgres");
const globals = globalThis as typeof globalThis & { [SHARED]?: Shared };

export default async function setup(project: TestProject) {
  let shared = globals[SHARED];
  if (!shared) {
    shared = { server: startServer(), cloned: new Set(), users: 0 };
    globals[SHARED] = shared;
  }
  shared.users += 1;
  const mine = shared;
  const teardown = async () => {
    mine.users -= 1;
    if (mine.users > 0) return;
    delete globals[SHARED];
    await (await mine.server).stop();
  };
  try {
    const server = await shared.server;
    await cloneForWorkers(server, shared.cloned, project.config.maxWorkers);
    project.provide("templateDatabaseUrl", server.templateUrl);
    project.provide("adminDatabaseUrl", server.adminUrl);
  } catch (error) {
    await teardown().catch(() => undefined);
    throw error;
  }
  return teardown;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated database the workers' copies are made from; no test connects to it. */
    templateDatabaseUrl: string;
    adminDatabaseUrl: string;
  }
}
