import "server-only";

import PgBoss from "pg-boss";

import { config } from "@/lib/server/config";

const globalForBoss = globalThis as unknown as { verityBoss?: Promise<PgBoss> };

/** This process's pg-boss instance (queues live in PostgreSQL, schema "pgboss"), started once. */
export function getBoss(): Promise<PgBoss> {
  globalForBoss.verityBoss ??= (async () => {
    const url = config().databaseUrl;
    if (!url) throw new Error("DATABASE_URL is not set: open the database first.");
    const boss = new PgBoss({ connectionString: url, max: 4 });
    boss.on("error", (error) => console.error(`job queue: ${error.message}`));
    await boss.start();
    return boss;
  })();
  return globalForBoss.verityBoss;
}

/** Stops pg-boss, letting active jobs finish (up to `timeoutMs`); unfinished ones are retried later. */
export async function stopBoss(timeoutMs = 30_000): Promise<void> {
  const boss = await globalForBoss.verityBoss;
  globalForBoss.verityBoss = undefined;
  await boss?.stop({ graceful: true, wait: true, close: true, timeout: timeoutMs });
}
