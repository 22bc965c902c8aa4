import "server-only";

import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";

import { config } from "@/lib/server/config";
import { PrismaClient } from "@/lib/generated/prisma/client";

import { createPool } from "./pool";

const globalForPrisma = globalThis as unknown as { verityPrisma?: PrismaClient; verityPrismaPool?: pg.Pool };

/**
 * The Prisma client of this process. Only modules in lib/server/db may call it.
 * DATABASE_URL is set by `openDatabase()` (CLI, start script) or by the environment.
 */
export function prisma(): PrismaClient {
  if (!globalForPrisma.verityPrisma) {
    const url = config().databaseUrl;
    if (!url) throw new Error("DATABASE_URL is not set: start Verity with `npm start` or set DATABASE_URL.");
    // Prisma's default of 2 s to start a transaction turns a busy pool (many annotators submitting
    // at once, or a loaded machine) into failed submissions; waiting a little longer is better.
    globalForPrisma.verityPrismaPool = createPool(url, 10);
    globalForPrisma.verityPrisma = new PrismaClient({
      adapter: new PrismaPg(globalForPrisma.verityPrismaPool),
      transactionOptions: { maxWait: 10_000, timeout: 15_000 },
    });
  }
  return globalForPrisma.verityPrisma;
}

/**
 * Closes the client's connections (CLI commands call this before exiting). The adapter does not end a
 * pool it was handed, so the pool is ended here; left open, its connections died with the database
 * and every CLI command ended with "database connection lost".
 */
export async function disconnectPrisma(): Promise<void> {
  const pool = globalForPrisma.verityPrismaPool;
  await globalForPrisma.verityPrisma?.$disconnect();
  if (pool && !pool.ended) await pool.end();
  globalForPrisma.verityPrisma = undefined;
  globalForPrisma.verityPrismaPool = undefined;
}
