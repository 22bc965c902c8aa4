// `npm run db:sql-migration` over a copy of prisma/sql: an edited file becomes a migration that
// carries it (and nothing else), which puts the file's definition in force; a comment is no change.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { applyMigrations } from "@/lib/server/db/migrate";
import { compareRuleFiles, readRuleFiles, SqlRulesError, writeSqlMigration } from "@/lib/server/db/sql-rules";
import { runSql, withFreshDatabase } from "@/lib/testing/fresh-database";

let sqlDir: string;
let migrationsDir: string;

beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), "verity-sql-rules-"));
  sqlDir = join(root, "sql");
  migrationsDir = join(root, "migrations");
  cpSync("prisma/sql", sqlDir, { recursive: true });
});

afterEach(() => rmSync(join(sqlDir, ".."), { recursive: true, force: true }));

function edit(path: string, from: string, to: string) {
  const file = join(sqlDir, path);
  const text = readFileSync(file, "utf8");
  expect(text, `${path} holds the text the test edits`).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

const written = () => (existsSync(migrationsDir) ? readdirSync(migrationsDir) : []);

describe("db:sql-migration", () => {
  it("writes a migration of the edited files only, which puts them in force; nothing when only comments changed", async () => {
    await withFreshDatabase("sql_rules", async (url) => {
      await applyMigrations(url);
      const date = new Date("2030-01-02T03:04:05Z");

      edit("functions/verity_reason_count.sql", "-- How many queues", "-- Counts how many queues");
      expect(await writeSqlMigration({ databaseUrl: url, sqlDir, migrationsDir, date })).toBeNull();
      expect(written()).toEqual([]);

      edit(
        "functions/verity_reason_count.sql",
        "bit_count(reasons::bit(32))::integer",
        "bit_count(reasons::bit(31))::integer",
      );
      edit(
        "triggers/Record.Record_note_changes.sql",
        'AFTER UPDATE OF "executableValid", flaky ON',
        'AFTER UPDATE OF "executableValid", flaky, difficulty ON',
      );
      const result = await writeSqlMigration({ databaseUrl: url, sqlDir, migrationsDir, date });
      expect(result).toEqual({
        folder: "20300102030405_sql_verity_reason_count_Record_Record_note_changes",
        paths: ["functions/verity_reason_count.sql", "triggers/Record.Record_note_changes.sql"],
      });
      expect(written()).toEqual([result!.folder]);
      const migration = readFileSync(join(migrationsDir, result!.folder, "migration.sql"), "utf8");
      expect(migration).toContain("CREATE OR REPLACE FUNCTION verity_reason_count(reasons integer)");
      expect(migration).toContain("bit_count(reasons::bit(31))::integer");
      expect(migration).toContain('DROP TRIGGER IF EXISTS "Record_note_changes" ON "Record";\n');
      expect(migration).toContain(
        'CREATE TRIGGER "Record_note_changes" AFTER UPDATE OF "executableValid", flaky, difficulty ON',
      );
      expect(migration).not.toContain("verity_admit_run");
      expect(migration.match(/^CREATE /gm)).toHaveLength(2);

      // Applied, the migration leaves the database as the edited files say and no longer as the
      // committed ones do.
      await runSql(url, migration);
      expect(await compareRuleFiles(url, readRuleFiles(sqlDir))).toEqual([]);
      expect((await compareRuleFiles(url)).map(({ path, problem }) => ({ path, problem }))).toEqual([
        { path: "functions/verity_reason_count.sql", problem: "differs" },
        { path: "triggers/Record.Record_note_changes.sql", problem: "differs" },
      ]);
      expect(await writeSqlMigration({ databaseUrl: url, sqlDir, migrationsDir, date })).toBeNull();

      // A new file creates its rule; a removed file drops its rule.
      writeFileSync(
        join(sqlDir, "functions/verity_test_added.sql"),
        "-- A rule for this test only.\nCREATE OR REPLACE FUNCTION verity_test_added() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$;\n",
      );
      rmSync(join(sqlDir, "triggers/Solution.Solution_note_changes_delete.sql"));
      const later = await writeSqlMigration({
        databaseUrl: url,
        sqlDir,
        migrationsDir,
        date: new Date("2030-01-02T03:04:06Z"),
      });
      expect(later?.paths).toEqual([
        "functions/verity_test_added.sql",
        "triggers/Solution.Solution_note_changes_delete.sql",
      ]);
      const second = readFileSync(join(migrationsDir, later!.folder, "migration.sql"), "utf8");
      expect(second).toContain("CREATE OR REPLACE FUNCTION verity_test_added()");
      expect(second).toContain('DROP TRIGGER IF EXISTS "Solution_note_changes_delete" ON "Solution";');
      expect(second).not.toContain("CREATE TRIGGER");
      await runSql(url, second);
      expect(await compareRuleFiles(url, readRuleFiles(sqlDir))).toEqual([]);
    });
  });

  it("refuses a change CREATE OR REPLACE cannot make, and a file that names another rule, writing nothing", async () => {
    // Nothing is written to the database when it refuses, so the worker's test database serves.
    const url = process.env.DATABASE_URL!;
    edit("functions/verity_reason_count.sql", "RETURNS integer", "RETURNS bigint");
    edit("functions/verity_reason_count.sql", "::integer", "::bigint");
    const refused = writeSqlMigration({ databaseUrl: url, sqlDir, migrationsDir });
    await expect(refused).rejects.toThrow(SqlRulesError);
    await expect(refused).rejects.toThrow(/functions\/verity_reason_count\.sql: fails .*DROP FUNCTION/s);

    cpSync("prisma/sql/functions/verity_reason_count.sql", join(sqlDir, "functions/verity_reason_count.sql"));
    cpSync("prisma/sql/functions/verity_reason_count.sql", join(sqlDir, "functions/verity_reason_tally.sql"));
    await expect(writeSqlMigration({ databaseUrl: url, sqlDir, migrationsDir })).rejects.toThrow(
      "prisma/sql/functions/verity_reason_tally.sql: not created by its file",
    );
    expect(written()).toEqual([]);
  });
});
