import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";

import { openDatabase } from "@/lib/server/db/database";
import { disconnectPrisma } from "@/lib/server/db/client";
import { closePgPool } from "@/lib/server/db/pool";

import { CommandExit, endCommand } from "./exit";

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
  return endCommand(2);
}

/** Exits with a usage error, before any work is done, unless the folder `file` goes into exists. */
export function assertOutputFolder(file: string): void {
  const folder = dirname(resolve(file));
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) usageError(`no such folder: ${folder}`);
}

/**
 * Prints a failed command's error as one line (no stack) and ends it with 1; a command already
 * ending (a usage error, or one said in full further in) keeps its own code and message.
 */
export function exitWithError(error: unknown, suffix = ""): never {
  if (error instanceof CommandExit) throw error;
  console.error(`error: ${error instanceof Error ? error.message : String(error)}${suffix}`);
  return endCommand(1);
}
