import "server-only";

import { PrismaPg } from "@prisma/adapter-pg";

import { PrismaClient } from "@/lib/generated/prisma/client";

import { createPool } from "./pool";

const globalForPrisma = globalThis as unknown as { verityPrisma?: PrismaClient };

/**
 * The Prisma client of this process. Only modules in lib/server/db may call it.
 * DATABASE_URL is set by `openDatabase()` (CLI, start script) or by the environment.
 */
export function prisma(): PrismaClient {
  if (!globalForPrisma.verityPrisma) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start Verity with `npm start` or set DATABASE_URL.");
    // Prisma's default of 2 s to start a transaction turns a busy pool (many annotators submitting
    // at once, or a loaded machine) into failed submissions; waiting a little longer is better.
    globalForPrisma.verityPrisma = new PrismaClient({
      adapter: new PrismaPg(createPool(url, 10)),
      transactionOptions: { maxWait: 10_000, timeout: 15_000 },
    });
  }
  return globalForPrisma.verityPrisma;
}

/** Closes the client's connections (CLI commands call this before exiting). */
export async function disconnectPrisma(): Promise<void> {
  await globalForPrisma.verityPrisma?.$disconnect();
  globalForPrisma.verityPrisma = undefined;
}
