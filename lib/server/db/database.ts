import "server-only";

import { config, settleConfig } from "@/lib/server/config";

import { type DatabaseHandle, startEmbeddedPostgres } from "./embedded-postgres";
import { applyMigrations } from "./migrate";

/**
 * Finds the database for this process: DATABASE_URL when set, otherwise the embedded PostgreSQL
 * in VERITY_DATA_DIR (started here, or reused when the app or another command already runs it).
 * Migrations are applied before it is handed out. Settles the configuration's database URL for the data layer.
 */
export async function openDatabase(options: { log?: (message: string) => void } = {}): Promise<DatabaseHandle> {
  const settings = config();
  const handle: DatabaseHandle = settings.databaseUrl
    ? { url: settings.databaseUrl, isOwner: false, stop: async () => {} }
    : await startEmbeddedPostgres({ dataDir: settings.dataDir, port: settings.dbPort, log: options.log });
  try {
    const applied = await applyMigrations(handle.url);
    if (applied.length > 0) options.log?.(`Applied migrations: ${applied.join(", ")}`);
  } catch (error) {
    await handle.stop();
    throw error;
  }
  settleConfig({ databaseUrl: handle.url });
  return handle;
}
