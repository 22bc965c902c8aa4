// Migrations are made by diffing schema.prisma against a snapshot, so a schema change committed
// without `npm run db:migration` (or a hand-edited migration) would reach production out of step
// with the code. One fresh database gets every migration, another gets the SQL Prisma derives
// from schema.prisma itself; their catalogs must describe the same tables, columns, types,
// defaults, constraints, indexes and enums. The SQL rules (functions and triggers) are made from
// their files under prisma/sql by `npm run db:sql-migration`, and the migrated database must
// define each exactly as its file does.
import { readFileSync } from "node:fs";

import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";

import { applyMigrations, schemaCreationSql } from "@/lib/server/db/migrate";
import { compareRuleFiles, readRuleFiles, type RuleDrift } from "@/lib/server/db/sql-rules";
import { runSql, withFreshDatabase } from "@/lib/testing/fresh-database";

// Everything in the public schema a migration can change, one sorted line per item; Prisma's own
// bookkeeping table is left out.
const CATALOG = `
  SELECT 'column ' || table_name || '.' || column_name || ' ' || udt_name || ' null=' || is_nullable
         || ' default=' || coalesce(column_default, '') AS line
    FROM information_schema.columns
   WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
  UNION ALL
  SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'
  UNION ALL
  SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '_prisma_migrations'
  UNION ALL
  SELECT 'enum ' || t.typname || ' ' || string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder)
    FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
   WHERE t.typnamespace = 'public'::regnamespace GROUP BY t.typname
  UNION ALL
  SELECT 'extension ' || extname FROM pg_extension
  UNION ALL
  SELECT 'function ' || p.oid::regprocedure::text FROM pg_proc p
   WHERE p.pronamespace = 'public'::regnamespace AND left(p.proname, 7) = 'verity_'
  UNION ALL
  SELECT 'trigger ' || pg_get_triggerdef(t.oid) FROM pg_trigger t
   WHERE NOT t.tgisinternal AND t.tgrelid::regclass::text <> '_prisma_migrations'
  ORDER BY line`;

// Written by hand into a migration because schema.prisma cannot express them; anything else found
// only in the migrated database is drift. The hand-written functions and triggers are not listed:
// each has its file under prisma/sql, and the last test holds the database to those files.
const HAND_WRITTEN = [
  // A partial index (Prisma has no WHERE on indexes): claiming finds open slots without a scan.
  'index CREATE INDEX "CampaignItem_open_slots_idx" ON public."CampaignItem" USING btree ("campaignId", "position") WHERE ("slotsTaken" < target)',
  // A covering index (Prisma has no INCLUDE): the final-label relation reads a record's evidence from it.
  'index CREATE INDEX "Record_evidence_idx" ON public."Record" USING btree (id) INCLUDE ("executableValid", "verificationOutcome", difficulty)',
  // A partial index: the flagged review queue finds the rare flagged labels without reading the rest.
  'index CREATE INDEX "Annotation_needs_review_idx" ON public."Annotation" USING btree ("itemId") WHERE "needsReview"',
  // A partial unique index: a record has at most one repair waiting for its second check.
  'index CREATE UNIQUE INDEX "RecordRevision_one_proposed_idx" ON public."RecordRevision" USING btree ("recordId") WHERE (status = \'PROPOSED\'::"RevisionStatus")',
  // A partial covering index: a queue page and its counts are one range of it, in queue order.
  'index CREATE INDEX "CampaignItem_review_queue_idx" ON public."CampaignItem" USING btree ("campaignId", "reviewReasonCount" DESC, "position") INCLUDE ("reviewReasons", language, "recordId") WHERE (("reviewReasonCount" > 0) AND (NOT gold))',
  // A partial covering index: a report reads the final categories of the items finally Invalid from it.
  'index CREATE INDEX "CampaignItem_invalid_idx" ON public."CampaignItem" USING btree ("campaignId", language) INCLUDE ("finalCategories") WHERE (("finalValid" = false) AND (NOT gold))',
  // A partial covering index: campaign progress sums the item counters from it, and a report counts the items.
  'index CREATE INDEX "CampaignItem_progress_idx" ON public."CampaignItem" USING btree ("campaignId", language) INCLUDE (target, "labelCount", "recordId", "validCount", "finalValid") WHERE (NOT gold)',
  // A covering index: a report reads each record's critic verdict from it, not from the wide rows.
  'index CREATE INDEX "CriticVerdict_pass_idx" ON public."CriticVerdict" USING btree ("recordId") INCLUDE ("overallPass")',
];

// Functions and triggers: schema.prisma declares none, so all of them are hand-written.
const isRule = (line: string) => line.startsWith("function ") || line.startsWith("trigger ");

async function catalogOf(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ line: string }>(CATALOG)).rows.map((row) => row.line);
  } finally {
    await client.end();
  }
}

describe("migrations", () => {
  // One database gets every migration; the first and last tests read it.
  let migrated: { catalog: string[]; rules: RuleDrift[] };
  beforeAll(async () => {
    migrated = await withFreshDatabase("migrated", async (url) => {
      expect((await applyMigrations(url)).length).toBeGreaterThan(0);
      return { catalog: await catalogOf(url), rules: await compareRuleFiles(url) };
    });
  });

  it("build the same database as schema.prisma (no forgotten or hand-edited migration)", async () => {
    const fromSchema = await withFreshDatabase("from_schema", async (url) => {
      // schema.prisma cannot declare the extension (a preview feature); the first migration creates it.
      await runSql(url, `CREATE EXTENSION IF NOT EXISTS pg_trgm;\n${await schemaCreationSql(url)}`);
      return catalogOf(url);
    });
    expect(migrated.catalog.length).toBeGreaterThan(50);
    expect(migrated.catalog.filter(isRule).length, "the migrations create the SQL rules").toBeGreaterThan(60);
    for (const line of HAND_WRITTEN)
      expect(migrated.catalog, "a hand-written migration object is gone; update HAND_WRITTEN").toContain(line);
    expect(
      migrated.catalog.filter((line) => !HAND_WRITTEN.includes(line) && !isRule(line)),
      "schema.prisma and prisma/migrations disagree: run `npm run db:migration -- <name>`",
    ).toEqual(fromSchema);
  });

  it("keep the snapshot the next migration is diffed from equal to schema.prisma", () => {
    expect(readFileSync("prisma/migrations/schema.snapshot.prisma", "utf8")).toBe(
      readFileSync("prisma/schema.prisma", "utf8"),
    );
  });

  it("define each hand-written function and trigger exactly as its file under prisma/sql says", () => {
    expect(readRuleFiles().length).toBeGreaterThan(60);
    // A file edited without a migration "differs"; a rule without a file, or a file without a
    // rule, is named too.
    expect(
      migrated.rules,
      "prisma/sql and prisma/migrations disagree: run `npm run db:sql-migration` (or add the missing file)",
    ).toEqual([]);
  });
});
