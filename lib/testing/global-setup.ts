// Vitest global setup for *.int.test.ts: a real PostgreSQL whose `verity` database is migrated
// from scratch once and serves as a template; each test process copies it for itself
// (setup-integration.ts), so two files running at once never share rows. By default the embedded PostgreSQL 18 on its own folder; with VERITY_TEST_POSTGRES=system,
// Debian's server (`apt-get install postgresql`, 15 on Debian 12; VERITY_PG_BIN picks another) in a
// temporary folder, set up as docs/deploy.md says.
//
// The integration projects (vitest.config.ts) all name this file; they share one server, started by whichever project sets up first
// and stopped when the last one tears down.
import { rmSync } from "node:fs";
import { join } from "node:path";

import type { TestProject } from "vitest/node";

import { startEmbeddedPostgres } from "@/lib/server/db/embedded-postgres";
import { readPasswords, socketUrl, SUPERUSER } from "@/lib/server/db/embedded-roles";
import { applyMigrations } from "@/lib/server/db/migrate";

import { startSystemPostgres } from "./system-postgres";

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
    // The app's role may not create databases; the processes' copies and tests that need a second
    // database use the superuser.
    adminUrl: socketUrl(join(dataDir, "postgres"), port, SUPERUSER, readPasswords(dataDir)!.superuser, "postgres"),
    stop: async () => {
      await database.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Shared = { server: Promise<Server>; users: number };
const SHARED = Symbol.for("verity.integration-postgres");
const globals = globalThis as typeof globalThis & { [SHARED]?: Shared };

export default async function setup(project: TestProject) {
  let shared = globals[SHARED];
  if (!shared) {
    shared = { server: startServer(), users: 0 };
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
    /** The migrated database each test process copies (setup-integration.ts); no test connects to it. */
    templateDatabaseUrl: string;
    adminDatabaseUrl: string;
  }
}
