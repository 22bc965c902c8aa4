// Migrations are made by diffing schema.prisma against a snapshot, so a schema change committed
// without `npm run db:migration` (or a hand-edited migration) would reach production out of step
// with the code. One fresh database gets every migration, another gets the SQL Prisma derives
// from schema.prisma itself; their catalogs must describe the same tables, columns, types,
// defaults, constraints, indexes and enums.
import { readFileSync } from "node:fs";

import pg from "pg";
import { describe, expect, it } from "vitest";

import { applyMigrations, schemaCreationSql } from "@/lib/server/db/migrate";
import { withFreshDatabase } from "@/lib/testing/fresh-database";

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
// only in the migrated database is drift.
const HAND_WRITTEN = [
  // A partial index (Prisma has no WHERE on indexes): claiming finds open slots without a scan.
  'index CREATE INDEX "CampaignItem_open_slots_idx" ON public."CampaignItem" USING btree ("campaignId", "position") WHERE ("slotsTaken" < target)',
  // Rate budgets and run leases shared by every app instance, each taken in one statement.
  "function verity_take_rate_budgets(text[],double precision[],double precision[],double precision[],timestamp with time zone)",
  "function verity_admit_run(text,text,integer,integer,integer)",
  // The final-label relation every reader of final labels pages through, and its verdict.
  'function verity_final_valid("FinalRule",integer,integer,boolean)',
  'function verity_decided_by("FinalRule",integer,integer,boolean)',
  "function verity_final_labels(text[])",
  // The same definition over item ids, which keeping an item's row reads (by key, whatever the statistics say).
  "function verity_final_labels_of_items(text[])",
  // A covering index (Prisma has no INCLUDE): the final-label relation reads a record's evidence from it.
  'index CREATE INDEX "Record_evidence_idx" ON public."Record" USING btree (id) INCLUDE ("executableValid", "verificationOutcome", difficulty)',
  // A partial index: the flagged review queue finds the rare flagged labels without reading the rest.
  'index CREATE INDEX "Annotation_needs_review_idx" ON public."Annotation" USING btree ("itemId") WHERE "needsReview"',
  // A partial unique index: a record has at most one repair waiting for its second check.
  'index CREATE UNIQUE INDEX "RecordRevision_one_proposed_idx" ON public."RecordRevision" USING btree ("recordId") WHERE (status = \'PROPOSED\'::"RevisionStatus")',
  // Each item's row of the final-label relation, kept on it by triggers (20261201180700_final_labels_kept):
  // the queues' statement, the kept relation readers read, and what keeps it.
  "function verity_review_reasons(integer,integer,boolean,boolean,boolean,boolean,boolean)",
  // The suspicion score that orders a suspicion campaign's sample (lib/evidence/suspicion.ts states it).
  "function verity_suspicion_score(double precision,boolean,integer,integer,boolean,boolean,double precision)",
  "function verity_reason_count(integer)",
  "function verity_kept_final_labels(text[])",
  "function verity_keep_final_labels(text[])",
  "function verity_keep_campaign_final_labels(text[])",
  "function verity_item_changed()",
  "function verity_annotations_changed()",
  "function verity_adjudications_changed()",
  "function verity_critics_changed()",
  "function verity_record_execution_changed()",
  "function verity_campaign_rule_changed()",
  "function verity_categories_changed()",
  // Whether one kept agreement count may replace another (20261202185225_agreement_snapshots).
  "function verity_snapshot_covers(pg_snapshot,pg_snapshot)",
  ...["insert", "update", "delete"].flatMap((event) =>
    ["Annotation", "Adjudication", "CriticVerdict", "ErrorCategory"].map((table) => {
      const transition = {
        insert: "NEW TABLE AS new_rows",
        update: "OLD TABLE AS old_rows NEW TABLE AS new_rows",
        delete: "OLD TABLE AS old_rows",
      }[event];
      const fn = {
        Annotation: "annotations",
        Adjudication: "adjudications",
        CriticVerdict: "critics",
        ErrorCategory: "categories",
      }[table];
      return `trigger CREATE TRIGGER "${table}_keep_final_labels_${event}" AFTER ${event.toUpperCase()} ON public."${table}" REFERENCING ${transition} FOR EACH STATEMENT EXECUTE FUNCTION verity_${fn}_changed()`;
    }),
  ),
  'trigger CREATE TRIGGER "CampaignItem_keep_final_labels" AFTER UPDATE OF gold ON public."CampaignItem" FOR EACH ROW WHEN ((old.gold IS DISTINCT FROM new.gold)) EXECUTE FUNCTION verity_item_changed()',
  'trigger CREATE TRIGGER "Record_keep_final_labels" AFTER UPDATE OF "executableValid" ON public."Record" FOR EACH ROW WHEN ((old."executableValid" IS DISTINCT FROM new."executableValid")) EXECUTE FUNCTION verity_record_execution_changed()',
  'trigger CREATE TRIGGER "Campaign_keep_final_labels" AFTER UPDATE OF "finalRule" ON public."Campaign" FOR EACH ROW WHEN ((old."finalRule" IS DISTINCT FROM new."finalRule")) EXECUTE FUNCTION verity_campaign_rule_changed()',
  // A partial covering index: a queue page and its counts are one range of it, in queue order.
  'index CREATE INDEX "CampaignItem_review_queue_idx" ON public."CampaignItem" USING btree ("campaignId", "reviewReasonCount" DESC, "position") INCLUDE ("reviewReasons", language, "recordId") WHERE (("reviewReasonCount" > 0) AND (NOT gold))',
  // Who labelled each campaign, kept with every label (20261201180800_campaign_annotators).
  "function verity_count_campaign_annotators(text[])",
  "function verity_annotators_changed()",
  "function verity_items_removed()",
  "function verity_item_gold_changed()",
  ...["insert", "update", "delete"].map((event) => {
    const transition = {
      insert: "NEW TABLE AS new_rows",
      update: "OLD TABLE AS old_rows NEW TABLE AS new_rows",
      delete: "OLD TABLE AS old_rows",
    }[event];
    return `trigger CREATE TRIGGER "Annotation_count_annotators_${event}" AFTER ${event.toUpperCase()} ON public."Annotation" REFERENCING ${transition} FOR EACH STATEMENT EXECUTE FUNCTION verity_annotators_changed()`;
  }),
  'trigger CREATE TRIGGER "CampaignItem_count_annotators_delete" AFTER DELETE ON public."CampaignItem" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_items_removed()',
  'trigger CREATE TRIGGER "CampaignItem_count_annotators_gold" AFTER UPDATE OF gold ON public."CampaignItem" FOR EACH ROW WHEN ((old.gold IS DISTINCT FROM new.gold)) EXECUTE FUNCTION verity_item_gold_changed()',
  // A partial covering index: campaign progress sums the item counters from it.
  'index CREATE INDEX "CampaignItem_progress_idx" ON public."CampaignItem" USING btree ("campaignId", language) INCLUDE (target, "labelCount", "recordId") WHERE (NOT gold)',
  // Each campaign's change log for its kept agreement counts: a row per transaction that changes
  // what they count (20261202060809_agreement_counts, 20261202070000_agreement_signal_changes).
  "function verity_note_campaign_changes(text[])",
  ...["annotation", "record", "execution", "item", "category"].map((what) => `function verity_note_${what}_changes()`),
  ...["insert", "update", "delete"].flatMap((event) => {
    const transition = {
      insert: "NEW TABLE AS new_rows",
      update: "OLD TABLE AS old_rows NEW TABLE AS new_rows",
      delete: "OLD TABLE AS old_rows",
    }[event];
    const tables = {
      Annotation: "annotation",
      CriticVerdict: "record",
      MutationAnalysis: "record",
      Solution: "record",
      ErrorCategory: "category",
      CampaignItem: "item",
    };
    return Object.entries(tables)
      .filter(([table]) => !(table === "CampaignItem" && event === "update"))
      .map(
        ([table, what]) =>
          `trigger CREATE TRIGGER "${table}_note_changes_${event}" AFTER ${event.toUpperCase()} ON public."${table}" REFERENCING ${transition} FOR EACH STATEMENT EXECUTE FUNCTION verity_note_${what}_changes()`,
      );
  }),
  'trigger CREATE TRIGGER "CampaignItem_note_changes_update" AFTER UPDATE ON public."CampaignItem" FOR EACH ROW WHEN ((((((old."finalValid" IS DISTINCT FROM new."finalValid") OR (old."finalCategories" IS DISTINCT FROM new."finalCategories")) OR (old.gold IS DISTINCT FROM new.gold)) OR (old.language IS DISTINCT FROM new.language)) OR (old."campaignId" IS DISTINCT FROM new."campaignId"))) EXECUTE FUNCTION verity_note_item_changes()',
  'trigger CREATE TRIGGER "Record_note_changes" AFTER UPDATE OF "executableValid", flaky ON public."Record" FOR EACH ROW WHEN (((old."executableValid" IS DISTINCT FROM new."executableValid") OR (old.flaky IS DISTINCT FROM new.flaky))) EXECUTE FUNCTION verity_note_execution_changes()',
];

async function catalogOf(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ line: string }>(CATALOG)).rows.map((row) => row.line);
  } finally {
    await client.end();
  }
}

async function runSql(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe("migrations", () => {
  it("build the same database as schema.prisma (no forgotten or hand-edited migration)", async () => {
    const migrated = await withFreshDatabase("migrated", async (url) => {
      expect((await applyMigrations(url)).length).toBeGreaterThan(0);
      return catalogOf(url);
    });
    const fromSchema = await withFreshDatabase("from_schema", async (url) => {
      // schema.prisma cannot declare the extension (a preview feature); the first migration creates it.
      await runSql(url, `CREATE EXTENSION IF NOT EXISTS pg_trgm;\n${await schemaCreationSql(url)}`);
      return catalogOf(url);
    });
    expect(migrated.length).toBeGreaterThan(50);
    for (const line of HAND_WRITTEN)
      expect(migrated, "a hand-written migration object is gone; update HAND_WRITTEN").toContain(line);
    expect(
      migrated.filter((line) => !HAND_WRITTEN.includes(line)),
      "schema.prisma and prisma/migrations disagree: run `npm run db:migration -- <name>`",
    ).toEqual(fromSchema);
  });

  it("keep the snapshot the next migration is diffed from equal to schema.prisma", () => {
    expect(readFileSync("prisma/migrations/schema.snapshot.prisma", "utf8")).toBe(
      readFileSync("prisma/schema.prisma", "utf8"),
    );
  });
});
