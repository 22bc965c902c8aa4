// Vitest global setup for *.int.test.ts: a real embedded PostgreSQL on its own folder and port,
// migrated from scratch, shared by the integration files (they run one at a time).
import { rmSync } from "node:fs";
import { join } from "node:path";

import type { TestProject } from "vitest/node";

import { startEmbeddedPostgres } from "@/lib/server/db/embedded-postgres";
import { readPasswords, socketUrl, SUPERUSER } from "@/lib/server/db/embedded-roles";
import { applyMigrations } from "@/lib/server/db/migrate";

export default async function setup(project: TestProject) {
  const dataDir = join(process.cwd(), ".data", "test-integration");
  rmSync(dataDir, { recursive: true, force: true });
  const port = Number(process.env.VERITY_TEST_DB_PORT ?? 54339);
  const database = await startEmbeddedPostgres({ dataDir, port });
  await applyMigrations(database.url);
  project.provide("databaseUrl", database.url);
  // The app's role may not create databases; tests that need a second one use the superuser.
  project.provide("adminDatabaseUrl", socketUrl(join(dataDir, "postgres"), port, SUPERUSER, readPasswords(dataDir)!.superuser, "postgres"));
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
