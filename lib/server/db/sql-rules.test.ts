import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { readRuleFiles, sqlMigrationName } from "./sql-rules";

describe("sqlMigrationName", () => {
  const date = new Date("2030-01-02T03:04:05Z");

  it("names the migration after the rules it carries", () => {
    expect(sqlMigrationName(["functions/verity_a.sql", "triggers/Record.Record_b.sql"], date)).toBe(
      "20300102030405_sql_verity_a_Record_Record_b",
    );
  });

  it("names the first and counts the rest past a few", () => {
    const paths = Array.from({ length: 6 }, (_, index) => `functions/verity_something_long_${index}.sql`);
    expect(sqlMigrationName(paths, date)).toBe("20300102030405_sql_verity_something_long_0_and_5_more");
  });
});

describe("readRuleFiles", () => {
  it("reads functions by name and triggers by table and name, and refuses a misnamed file", () => {
    const dir = mkdtempSync(join(tmpdir(), "verity-sql-files-"));
    try {
      mkdirSync(join(dir, "functions"));
      mkdirSync(join(dir, "triggers"));
      writeFileSync(join(dir, "functions", "verity_a.sql"), "CREATE OR REPLACE FUNCTION verity_a() …");
      writeFileSync(join(dir, "triggers", "Record.Record_b.sql"), 'CREATE TRIGGER "Record_b" …');
      expect(readRuleFiles(dir).map(({ text: _text, ...rest }) => rest)).toEqual([
        { path: "functions/verity_a.sql", kind: "function", name: "verity_a" },
        { path: "triggers/Record.Record_b.sql", kind: "trigger", name: "Record_b", table: "Record" },
      ]);
      writeFileSync(join(dir, "triggers", "Record_b.sql"), 'CREATE TRIGGER "Record_b" …');
      expect(() => readRuleFiles(dir)).toThrow(
        "prisma/sql/triggers/Record_b.sql: name it triggers/<table>.<trigger>.sql.",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
