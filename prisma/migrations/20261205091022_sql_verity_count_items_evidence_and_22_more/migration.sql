-- Written by `npm run db:sql-migration` from prisma/sql, which holds each rule's current definition.

-- prisma/sql/functions/verity_count_items_evidence.sql
-- Campaign items inserted or deleted: their campaigns' kept counts ("CampaignEvidenceCount", items
-- that are not gold) per language and mask gain or lose them. Statement by statement, so creating a
-- campaign of 100,000 items writes a few rows. A deleted campaign's count rows go with it (cascade):
-- only existing rows lose items.
-- Fired by triggers/CampaignItem.CampaignItem_count_evidence_{insert,delete}.sql.
CREATE OR REPLACE FUNCTION verity_count_items_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "CampaignEvidenceCount" ("campaignId", language, reasons, items)
    SELECT "campaignId", language, "evidenceReasons", count(*) FROM new_rows
    WHERE "evidenceReasons" <> 0 AND NOT gold GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("campaignId", language, reasons) DO UPDATE SET items = "CampaignEvidenceCount".items + EXCLUDED.items;
  ELSE
    UPDATE "CampaignEvidenceCount" c SET items = c.items - gone.n
    FROM (SELECT "campaignId", language, "evidenceReasons" AS reasons, count(*) AS n FROM old_rows
          WHERE "evidenceReasons" <> 0 AND NOT gold GROUP BY 1, 2, 3) gone
    WHERE c."campaignId" = gone."campaignId" AND c.language = gone.language AND c.reasons = gone.reasons;
  END IF;
  RETURN NULL;
END
$$;

-- prisma/sql/functions/verity_count_records_evidence.sql
-- Records inserted or deleted: their datasets' kept counts ("EvidenceCount") per language and mask
-- gain or lose them. Statement by statement, so an import of 100,000 records writes a few rows. A
-- deleted dataset's count rows go with it (cascade): only existing rows lose records.
-- Fired by triggers/Record.Record_count_evidence_{insert,delete}.sql.
CREATE OR REPLACE FUNCTION verity_count_records_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "EvidenceCount" ("datasetId", language, reasons, records)
    SELECT "datasetId", language, "evidenceReasons", count(*) FROM new_rows
    WHERE "evidenceReasons" <> 0 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("datasetId", language, reasons) DO UPDATE SET records = "EvidenceCount".records + EXCLUDED.records;
  ELSE
    UPDATE "EvidenceCount" c SET records = c.records - gone.n
    FROM (SELECT "datasetId", language, "evidenceReasons" AS reasons, count(*) AS n FROM old_rows
          WHERE "evidenceReasons" <> 0 GROUP BY 1, 2, 3) gone
    WHERE c."datasetId" = gone."datasetId" AND c.language = gone.language AND c.reasons = gone.reasons;
  END IF;
  RETURN NULL;
END
$$;

-- prisma/sql/functions/verity_evidence_reasons.sql
-- The evidence reasons a record is in, as a mask (lib/evidence/suspicion.ts evidenceReasonsOf, bit
-- 2^k for EVIDENCE_REASONS[k]): 1 weak tests (mutation score below 0.5, WEAK_TESTS_THRESHOLD), 2
-- flaky, 4 solved by no model (a solution ran, none passed), 8 critic and execution disagree (both
-- have a verdict, they differ, the record is not flaky). Pure; lib/server/evidence/reasons.ts reads
-- the bits, and an integration test holds the two to the same answers.
-- Called by functions/verity_record_evidence_reasons.sql and functions/verity_keep_record_evidence.sql.
CREATE OR REPLACE FUNCTION verity_evidence_reasons(
  mutation_score double precision, flaky boolean, executable_valid boolean, critic_pass boolean,
  solvers_ran integer, solvers_passed integer
) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN mutation_score < 0.5 THEN 1 ELSE 0 END)
       | (CASE WHEN flaky THEN 2 ELSE 0 END)
       | (CASE WHEN solvers_ran > 0 AND solvers_passed = 0 THEN 4 ELSE 0 END)
       | (CASE WHEN critic_pass IS NOT NULL AND executable_valid IS NOT NULL AND flaky IS NOT TRUE
                    AND critic_pass <> executable_valid THEN 8 ELSE 0 END)
$$;

-- prisma/sql/functions/verity_evidence_sources_changed.sql
-- Critic verdicts or solutions changed: keeps "Record"."evidenceReasons" of their records (only
-- where the mask moves, so most solver results write nothing). Statement by statement, so a bulk
-- import of verdicts or a solver batch's results update each record once.
-- Fired by triggers/CriticVerdict.CriticVerdict_keep_evidence_{insert,update,delete}.sql and
-- triggers/Solution.Solution_keep_evidence_{insert,update,delete}.sql.
CREATE OR REPLACE FUNCTION verity_evidence_sources_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  record_ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    record_ids := ARRAY(SELECT DISTINCT "recordId" FROM new_rows);
  ELSIF TG_OP = 'UPDATE' THEN
    record_ids := ARRAY(SELECT "recordId" FROM new_rows UNION SELECT "recordId" FROM old_rows);
  ELSE
    record_ids := ARRAY(SELECT DISTINCT "recordId" FROM old_rows);
  END IF;
  UPDATE "Record" r
     SET "evidenceReasons" = verity_record_evidence_reasons(r.id, r."mutationScore", r.flaky, r."executableValid")
   WHERE r.id = ANY(record_ids)
     AND r."evidenceReasons" <> verity_record_evidence_reasons(r.id, r."mutationScore", r.flaky, r."executableValid");
  RETURN NULL;
END
$$;

-- prisma/sql/functions/verity_item_evidence_changed.sql
-- A campaign item's evidence reasons, gold flag or language moved: its campaign's kept count
-- ("CampaignEvidenceCount", items that are not gold) moves it from the old mask to the new, the two
-- rows locked in mask order (see functions/verity_record_evidence_changed.sql).
-- Fired by triggers/CampaignItem.CampaignItem_evidence_changed.sql.
CREATE OR REPLACE FUNCTION verity_item_evidence_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CampaignEvidenceCount" ("campaignId", language, reasons, items)
  SELECT d."campaignId", d.language, d.reasons, d.delta
  FROM (VALUES (OLD."campaignId", OLD.language, OLD."evidenceReasons", OLD.gold, -1),
               (NEW."campaignId", NEW.language, NEW."evidenceReasons", NEW.gold, 1))
       AS d("campaignId", language, reasons, gold, delta)
  WHERE d.reasons <> 0 AND NOT d.gold
  ORDER BY d."campaignId", d.language, d.reasons
  ON CONFLICT ("campaignId", language, reasons) DO UPDATE SET items = "CampaignEvidenceCount".items + EXCLUDED.items;
  RETURN NULL;
END
$$;

-- prisma/sql/functions/verity_item_evidence.sql
-- A new campaign item takes its record's evidence reasons ("Record"."evidenceReasons").
-- Fired by triggers/CampaignItem.CampaignItem_keep_evidence.sql.
CREATE OR REPLACE FUNCTION verity_item_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."evidenceReasons" := coalesce((SELECT "evidenceReasons" FROM "Record" WHERE id = NEW."recordId"), 0);
  RETURN NEW;
END
$$;

-- prisma/sql/functions/verity_keep_record_evidence.sql
-- Keeps "Record"."evidenceReasons" when a record is inserted or its mutation score, flakiness or
-- execution result is written. A new record has no critic verdict or solution yet (they reference
-- it), so its mask reads its own columns only.
-- Fired by triggers/Record.Record_keep_evidence.sql.
CREATE OR REPLACE FUNCTION verity_keep_record_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW."evidenceReasons" := verity_evidence_reasons(NEW."mutationScore", NEW.flaky, NEW."executableValid", NULL, 0, 0);
  ELSE
    NEW."evidenceReasons" := verity_record_evidence_reasons(NEW.id, NEW."mutationScore", NEW.flaky, NEW."executableValid");
  END IF;
  RETURN NEW;
END
$$;

-- prisma/sql/functions/verity_record_evidence_changed.sql
-- A record's evidence reasons (or its dataset or language) moved: its dataset's kept count
-- ("EvidenceCount") moves one record from the old mask to the new, and its campaign items carry the
-- new mask ("CampaignItem"."evidenceReasons", whose own trigger keeps the campaigns' counts). The two
-- count rows are locked in mask order, so two writers moving records between the same masks in
-- opposite directions wait for each other instead of deadlocking.
-- Fired by triggers/Record.Record_evidence_changed.sql.
CREATE OR REPLACE FUNCTION verity_record_evidence_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "EvidenceCount" ("datasetId", language, reasons, records)
  SELECT d."datasetId", d.language, d.reasons, d.delta
  FROM (VALUES (OLD."datasetId", OLD.language, OLD."evidenceReasons", -1),
               (NEW."datasetId", NEW.language, NEW."evidenceReasons", 1)) AS d("datasetId", language, reasons, delta)
  WHERE d.reasons <> 0
  ORDER BY d."datasetId", d.language, d.reasons
  ON CONFLICT ("datasetId", language, reasons) DO UPDATE SET records = "EvidenceCount".records + EXCLUDED.records;
  IF OLD."evidenceReasons" IS DISTINCT FROM NEW."evidenceReasons" THEN
    UPDATE "CampaignItem" SET "evidenceReasons" = NEW."evidenceReasons" WHERE "recordId" = NEW.id;
  END IF;
  RETURN NULL;
END
$$;

-- prisma/sql/functions/verity_record_evidence_reasons.sql
-- A record's evidence reasons (functions/verity_evidence_reasons.sql) from its columns, its critic
-- verdict and its solutions (those that ran: passed is known).
-- Called by functions/verity_keep_record_evidence.sql and functions/verity_evidence_sources_changed.sql.
CREATE OR REPLACE FUNCTION verity_record_evidence_reasons(
  record_id integer, mutation_score double precision, flaky boolean, executable_valid boolean
) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT verity_evidence_reasons(
    mutation_score, flaky, executable_valid,
    (SELECT c."overallPass" FROM "CriticVerdict" c WHERE c."recordId" = record_id),
    s.ran, s.passed)
  FROM (SELECT count(*)::integer AS ran, (count(*) FILTER (WHERE passed))::integer AS passed
        FROM "Solution" WHERE "recordId" = record_id AND passed IS NOT NULL) s
$$;

-- prisma/sql/triggers/CampaignItem.CampaignItem_count_evidence_delete.sql
DROP TRIGGER IF EXISTS "CampaignItem_count_evidence_delete" ON "CampaignItem";
-- After DELETE on "CampaignItem" (each statement): the deleted items leave their campaign's
-- evidence-queue counts. Runs functions/verity_count_items_evidence.sql.
CREATE TRIGGER "CampaignItem_count_evidence_delete" AFTER DELETE ON "CampaignItem"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_count_items_evidence();

-- prisma/sql/triggers/CampaignItem.CampaignItem_count_evidence_insert.sql
DROP TRIGGER IF EXISTS "CampaignItem_count_evidence_insert" ON "CampaignItem";
-- After INSERT on "CampaignItem" (each statement): the new items join their campaign's
-- evidence-queue counts. Runs functions/verity_count_items_evidence.sql.
CREATE TRIGGER "CampaignItem_count_evidence_insert" AFTER INSERT ON "CampaignItem"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_count_items_evidence();

-- prisma/sql/triggers/CampaignItem.CampaignItem_evidence_changed.sql
DROP TRIGGER IF EXISTS "CampaignItem_evidence_changed" ON "CampaignItem";
-- After UPDATE on "CampaignItem" (each row, when its evidence reasons, gold flag, language or
-- campaign moved): keeps the campaign's evidence-queue counts. Runs
-- functions/verity_item_evidence_changed.sql.
CREATE TRIGGER "CampaignItem_evidence_changed" AFTER UPDATE ON "CampaignItem"
  FOR EACH ROW WHEN ((OLD."evidenceReasons", OLD.gold, OLD.language, OLD."campaignId")
                     IS DISTINCT FROM (NEW."evidenceReasons", NEW.gold, NEW.language, NEW."campaignId"))
  EXECUTE FUNCTION verity_item_evidence_changed();

-- prisma/sql/triggers/CampaignItem.CampaignItem_keep_evidence.sql
DROP TRIGGER IF EXISTS "CampaignItem_keep_evidence" ON "CampaignItem";
-- Before INSERT on "CampaignItem" (each row): the item takes its record's evidence reasons. Runs
-- functions/verity_item_evidence.sql.
CREATE TRIGGER "CampaignItem_keep_evidence" BEFORE INSERT ON "CampaignItem"
  FOR EACH ROW EXECUTE FUNCTION verity_item_evidence();

-- prisma/sql/triggers/CriticVerdict.CriticVerdict_keep_evidence_delete.sql
DROP TRIGGER IF EXISTS "CriticVerdict_keep_evidence_delete" ON "CriticVerdict";
-- After DELETE on "CriticVerdict" (each statement): keeps the evidence reasons of their records. Runs
-- functions/verity_evidence_sources_changed.sql.
CREATE TRIGGER "CriticVerdict_keep_evidence_delete" AFTER DELETE ON "CriticVerdict"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_evidence_sources_changed();

-- prisma/sql/triggers/CriticVerdict.CriticVerdict_keep_evidence_insert.sql
DROP TRIGGER IF EXISTS "CriticVerdict_keep_evidence_insert" ON "CriticVerdict";
-- After INSERT on "CriticVerdict" (each statement): keeps the evidence reasons of their records. Runs
-- functions/verity_evidence_sources_changed.sql.
CREATE TRIGGER "CriticVerdict_keep_evidence_insert" AFTER INSERT ON "CriticVerdict"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_evidence_sources_changed();

-- prisma/sql/triggers/CriticVerdict.CriticVerdict_keep_evidence_update.sql
DROP TRIGGER IF EXISTS "CriticVerdict_keep_evidence_update" ON "CriticVerdict";
-- After UPDATE on "CriticVerdict" (each statement): keeps the evidence reasons of their records. Runs
-- functions/verity_evidence_sources_changed.sql.
CREATE TRIGGER "CriticVerdict_keep_evidence_update" AFTER UPDATE ON "CriticVerdict"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_evidence_sources_changed();

-- prisma/sql/triggers/Record.Record_count_evidence_delete.sql
DROP TRIGGER IF EXISTS "Record_count_evidence_delete" ON "Record";
-- After DELETE on "Record" (each statement): the deleted records leave their dataset's evidence
-- counts. Runs functions/verity_count_records_evidence.sql.
CREATE TRIGGER "Record_count_evidence_delete" AFTER DELETE ON "Record"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_count_records_evidence();

-- prisma/sql/triggers/Record.Record_count_evidence_insert.sql
DROP TRIGGER IF EXISTS "Record_count_evidence_insert" ON "Record";
-- After INSERT on "Record" (each statement): the new records join their dataset's evidence counts.
-- Runs functions/verity_count_records_evidence.sql.
CREATE TRIGGER "Record_count_evidence_insert" AFTER INSERT ON "Record"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_count_records_evidence();

-- prisma/sql/triggers/Record.Record_evidence_changed.sql
DROP TRIGGER IF EXISTS "Record_evidence_changed" ON "Record";
-- After UPDATE on "Record" (each row, when its evidence reasons, dataset or language moved; no
-- column list, as the reasons are set by a BEFORE trigger, which a column list does not see): keeps
-- the dataset's evidence counts and the record's items' masks. Runs
-- functions/verity_record_evidence_changed.sql.
CREATE TRIGGER "Record_evidence_changed" AFTER UPDATE ON "Record"
  FOR EACH ROW WHEN ((OLD."evidenceReasons", OLD."datasetId", OLD.language)
                     IS DISTINCT FROM (NEW."evidenceReasons", NEW."datasetId", NEW.language))
  EXECUTE FUNCTION verity_record_evidence_changed();

-- prisma/sql/triggers/Record.Record_keep_evidence.sql
DROP TRIGGER IF EXISTS "Record_keep_evidence" ON "Record";
-- Before INSERT, and UPDATE OF "mutationScore", flaky, "executableValid", on "Record" (each row):
-- sets the record's "evidenceReasons". Runs functions/verity_keep_record_evidence.sql.
CREATE TRIGGER "Record_keep_evidence" BEFORE INSERT OR UPDATE OF "mutationScore", flaky, "executableValid" ON "Record"
  FOR EACH ROW EXECUTE FUNCTION verity_keep_record_evidence();

-- prisma/sql/triggers/Solution.Solution_keep_evidence_delete.sql
DROP TRIGGER IF EXISTS "Solution_keep_evidence_delete" ON "Solution";
-- After DELETE on "Solution" (each statement): keeps the evidence reasons of their records. Runs
-- functions/verity_evidence_sources_changed.sql.
CREATE TRIGGER "Solution_keep_evidence_delete" AFTER DELETE ON "Solution"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_evidence_sources_changed();

-- prisma/sql/triggers/Solution.Solution_keep_evidence_insert.sql
DROP TRIGGER IF EXISTS "Solution_keep_evidence_insert" ON "Solution";
-- After INSERT on "Solution" (each statement): keeps the evidence reasons of their records. Runs
-- functions/verity_evidence_sources_changed.sql.
CREATE TRIGGER "Solution_keep_evidence_insert" AFTER INSERT ON "Solution"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_evidence_sources_changed();

-- prisma/sql/triggers/Solution.Solution_keep_evidence_update.sql
DROP TRIGGER IF EXISTS "Solution_keep_evidence_update" ON "Solution";
-- After UPDATE on "Solution" (each statement): keeps the evidence reasons of their records. Runs
-- functions/verity_evidence_sources_changed.sql.
CREATE TRIGGER "Solution_keep_evidence_update" AFTER UPDATE ON "Solution"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_evidence_sources_changed();
