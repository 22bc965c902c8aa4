// Turns edited files under prisma/sql into a new migration (`npm run db:sql-migration`).
//
// Each hand-written function and trigger has one file there holding its current definition. This
// applies prisma/migrations to a scratch embedded PostgreSQL (its own folder, removed afterwards),
// compares what they define with the files, and writes prisma/migrations/<timestamp>_sql_<names>/
// with CREATE OR REPLACE FUNCTION for each changed or new function, DROP TRIGGER IF EXISTS and
// CREATE TRIGGER for each changed or new trigger, and a DROP for a rule whose file was removed.
// The migration is tried on the scratch database before it is written. Exit 0 when written or
// nothing changed, 1 when a file cannot be carried by a migration (the message says why).
import { rmSync } from "node:fs";
import { join } from "node:path";

import { startEmbeddedPostgres } from "@/lib/server/db/embedded-postgres";
import { applyMigrations } from "@/lib/server/db/migrate";
import { SqlRulesError, writeSqlMigration } from "@/lib/server/db/sql-rules";

const dataDir = join(process.cwd(), ".data", `sql-migration-${process.pid}`);
// The embedded server listens on no TCP port; the number only names its socket in dataDir.
const database = await startEmbeddedPostgres({ dataDir, port: 54338 });
try {
  await applyMigrations(database.url);
  const written = await writeSqlMigration({ databaseUrl: database.url });
  if (!written) console.log("nothing changed: prisma/sql matches the migrations.");
  else {
    console.log(`Created prisma/migrations/${written.folder}/migration.sql for:`);
    for (const path of written.paths) console.log(`  prisma/sql/${path}`);
  }
} catch (error) {
  if (!(error instanceof SqlRulesError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await database.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
