import type { Command } from "commander";

import { config } from "@/lib/server/config";
import { openDatabase } from "@/lib/server/db/database";
import { startEmbeddedPostgres } from "@/lib/server/db/embedded-postgres";
import { createMigration } from "@/lib/server/db/migrate";

import { endCommand } from "./exit";
import { exitWithError } from "./with-database";

/** Registers `verity db migrate` and `verity db migration NAME`. */
export function registerDbCommands(program: Command): void {
  const db = program.command("db").description("Database migrations (offline).");

  db.command("migrate")
    .description("Apply the migrations in prisma/migrations that the database has not seen.")
    .action(async () => {
      const database = await openDatabase({ log: (message) => console.log(message) }).catch((error: unknown) =>
        exitWithError(error),
      );
      console.log("The database is up to date.");
      await database.stop();
    });

  db.command("migration")
    .argument("<name>", "a short name for the migration, e.g. add_campaigns")
    .description("Create a migration folder from the changes in prisma/schema.prisma.")
    .action(async (name: string) => {
      if (!/^[a-z0-9_]+$/i.test(name)) {
        console.error("The migration name may only hold letters, digits and underscores.");
        endCommand(2);
      }
      const settings = config();
      const server = settings.databaseUrl
        ? { url: settings.databaseUrl, stop: async () => {} }
        : await startEmbeddedPostgres({ dataDir: settings.dataDir, port: settings.dbPort });
      const folder = await createMigration(server.url, name).finally(() => server.stop());
      console.log(
        folder ? `Created prisma/migrations/${folder}/migration.sql` : "schema.prisma has no changes to migrate.",
      );
    });
}
