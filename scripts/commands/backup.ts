import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from "node:fs";

import type { Command } from "commander";

import { config } from "@/lib/server/config";
import { restoreBackup, writeBackup } from "@/lib/server/db/backup";

import { assertOutputFolder, exitWithError, usageError, withDatabase } from "./with-database";
import { countOf } from "@/lib/format/count";

/** Registers `verity backup` and `verity restore`. */
export function registerBackupCommands(program: Command): void {
  program
    .command("backup")
    .requiredOption("--out <file>", "where to write the backup (gzipped)")
    .description("Back up every table in one consistent snapshot (works with the embedded database).")
    .action(async (options: { out: string }) => {
      assertOutputFolder(options.out);
      const partial = `${options.out}.partial`;
      const counts = await withDatabase(async () => {
        try {
          // A backup holds every password hash and label: readable by its owner only. A stale
          // partial file goes first, since an existing file would keep its wider mode.
          rmSync(partial, { force: true });
          const result = await writeBackup(config().databaseUrl!, createWriteStream(partial, { mode: 0o600 }));
          renameSync(partial, options.out);
          return result;
        } catch (error) {
          rmSync(partial, { force: true });
          throw error;
        }
      }).catch((error: unknown) => exitWithError(error));
      console.log(
        `Backed up ${countOf(
          Object.values(counts).reduce((sum, n) => sum + n, 0),
          "row",
        )} from ${countOf(Object.keys(counts).length, "table")} to ${options.out}.`,
      );
    });

  program
    .command("restore")
    .argument("<file>", "a file written by `verity backup`")
    .description("Restore a backup into an empty database (migrated to the backup's version); all or nothing.")
    .action(async (file: string) => {
      if (!existsSync(file)) usageError(`no such file: ${file}`);
      const counts = await withDatabase(() => restoreBackup(config().databaseUrl!, createReadStream(file))).catch(
        (error: unknown) => exitWithError(error, " Nothing was restored."),
      );
      console.log(
        `Restored ${countOf(
          Object.values(counts).reduce((sum, n) => sum + n, 0),
          "row",
        )} into ${countOf(Object.keys(counts).length, "table")}.`,
      );
    });
}
