import "server-only";

import pg from "pg";

import { config } from "@/lib/server/config";

const globalForPool = globalThis as unknown as { verityPool?: pg.Pool };

/**
 * A plain node-postgres pool for the few bulk paths Prisma cannot express efficiently
 * (streaming import with array parameters, COPY). Only lib/server/db uses it.
 */
export function pgPool(): pg.Pool {
  if (!globalForPool.verityPool) {
    const url = config().databaseUrl;
    if (!url) throw new Error("DATABASE_URL is not set: start Verity with `npm start` or set DATABASE_URL.");
    globalForPool.verityPool = createPool(url, 5);
  }
  return globalForPool.verityPool;
}

/**
 * A pool whose idle connections may die (PostgreSQL restarted, failover) without taking the process
 * down: node-postgres emits "error" on the pool for them, and an unhandled one would crash the app.
 * The next query simply opens a new connection. Once the pool is being closed its connections are
 * going anyway: `end()` resolves when it has asked them to close, not when they have, so a server
 * stopped right after (a CLI command on the embedded database) may end one first, which is no loss.
 */
export function createPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on("error", (error) => {
    if (pool.ending) return;
    console.error(`database connection lost (${error.message}); reconnecting on the next query`);
  });
  return pool;
}

export async function closePgPool(): Promise<void> {
  await globalForPool.verityPool?.end();
  globalForPool.verityPool = undefined;
}
