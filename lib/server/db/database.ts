import "server-only";

import { readConfig } from "@/lib/server/config";

import { type DatabaseHandle, startEmbeddedPostgres } from "./embedded-postgres";
import { applyMigrations } from "./migrate";

/**
 * Finds the database for this process: DATABASE_URL when set, otherwise the embedded PostgreSQL
 * in VERITY_DATA_DIR (started here, or reused when the app or another command already runs it).
 * Migrations are applied before it is handed out. Sets DATABASE_URL for the data layer.
 */
export async function openDatabase(options: { log?: (message: string) => void } = {}): Promise<DatabaseHandle> {
  const config = readConfig();
  const handle: DatabaseHandle = config.databaseUrl
    ? { url: config.databaseUrl, isOwner: false, stop: async () => {} }
    : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.dbPort, log: options.log });
  try {
    const applied = await applyMigrations(handle.url);
    if (applied.length > 0) options.log?.(`Applied migrations: ${applied.join(", ")}`);
  } catch (error) {
    await handle.stop();
    throw error;
  }
  process.env.DATABASE_URL = handle.url;
  return handle;
}
