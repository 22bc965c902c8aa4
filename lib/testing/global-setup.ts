// Vitest global setup for *.int.test.ts: a real PostgreSQL, migrated from scratch, shared by the
// integration files (they run one at a time). By default the embedded PostgreSQL 18 on its own
// folder; with VERITY_TEST_POSTGRES=system, Debian's server (`apt-get install postgresql`, 15 on
// Debian 12; VERITY_PG_BIN picks another) in a temporary folder, set up as docs/deploy.md says.
import { rmSync } from "node:fs";
import { join } from "node:path";

import type { TestProject } from "vitest/node";

import { startEmbeddedPostgres } from "@/lib/server/db/embedded-postgres";
import { readPasswords, socketUrl, SUPERUSER } from "@/lib/server/db/embedded-roles";
import { applyMigrations } from "@/lib/server/db/migrate";

import { startSystemPostgres } from "./system-postgres";

const SERVERS = ["embedded", "system"] as const;

export default async function setup(project: TestProject) {
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
    project.provide("databaseUrl", server.url);
    project.provide("adminDatabaseUrl", server.adminUrl);
    return () => server.stop();
  }

  const dataDir = join(process.cwd(), ".data", "test-integration");
  rmSync(dataDir, { recursive: true, force: true });
  const database = await startEmbeddedPostgres({ dataDir, port });
  await applyMigrations(database.url);
  project.provide("databaseUrl", database.url);
  // The app's role may not create databases; tests that need a second one use the superuser.
  project.provide(
    "adminDatabaseUrl",
    socketUrl(join(dataDir, "postgres"), port, SUPERUSER, readPasswords(dataDir)!.superuser, "postgres"),
  );
  return async () => {
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    adminDatabaseUrl: string;
  }
}
