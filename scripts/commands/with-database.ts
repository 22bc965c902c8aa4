import { openDatabase } from "@/lib/server/db/database";
import { disconnectPrisma } from "@/lib/server/db/client";
import { closePgPool } from "@/lib/server/db/pool";

/** Runs a CLI action with the database open (embedded or DATABASE_URL), then closes everything. */
export async function withDatabase<T>(action: () => Promise<T>): Promise<T> {
  const database = await openDatabase();
  try {
    return await action();
  } finally {
    await disconnectPrisma();
    await closePgPool();
    await database.stop();
  }
}

/** Prints a usage error and exits 2, the CLI's code for bad arguments. */
export function usageError(message: string): never {
  console.error(`error: ${message}`);
  process.exit(2);
}
