import "server-only";

import pg from "pg";

const globalForPool = globalThis as unknown as { verityPool?: pg.Pool };

/**
 * A plain node-postgres pool for the few bulk paths Prisma cannot express efficiently
 * (streaming import with array parameters, COPY). Only lib/server/db uses it.
 */
export function pgPool(): pg.Pool {
  if (!globalForPool.verityPool) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start Verity with `npm start` or set DATABASE_URL.");
    globalForPool.verityPool = new pg.Pool({ connectionString: url, max: 5 });
  }
  return globalForPool.verityPool;
}

export async function closePgPool(): Promise<void> {
  await globalForPool.verityPool?.end();
  globalForPool.verityPool = undefined;
}
