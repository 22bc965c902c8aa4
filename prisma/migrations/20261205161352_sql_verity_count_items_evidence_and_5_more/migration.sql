-- Written by `npm run db:sql-migration` from prisma/sql, which holds each rule's current definition.

-- prisma/sql/functions/verity_count_items_evidence.sql
-- Campaign items inserted or deleted: their campaigns' kept counts (items that are not gold) gain or
-- lose them, as rows of "CampaignEvidenceCountDelta" per language and mask (inserted, never updated;
-- functions/verity_fold_campaign_evidence_counts.sql moves them into "CampaignEvidenceCount").
-- Statement by statement, so creating a campaign of 100,000 items writes a few rows. A deleted
-- campaign's counts go with it (cascade): items deleted with it write none.
-- Fired by triggers/CampaignItem.CampaignItem_count_evidence_{insert,delete}.sql.
CREATE OR REPLACE FUNCTION verity_count_items_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "CampaignEvidenceCountDelta" ("campaignId", language, reasons, delta)
    SELECT "campaignId", language, "evidenceReasons", count(*) FROM new_rows
    WHERE "evidenceReasons" <> 0 AND NOT gold GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO "CampaignEvidenceCountDelta" ("campaignId", language, reasons, delta)
    SELECT o."campaignId", o.language, o."evidenceReasons", -count(*) FROM old_rows o
    WHERE o."evidenceReasons" <> 0 AND NOT o.gold AND EXISTS (SELECT 1 FROM "Campaign" c WHERE c.id = o."campaignId")
    GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END
$$;

-- prisma/sql/functions/verity_count_records_evidence.sql
-- Records inserted or deleted: their datasets' kept counts gain or lose them, as rows of
-- "EvidenceCountDelta" per language and mask (inserted, never updated, so writers never wait on each
-- other; functions/verity_fold_evidence_counts.sql moves them into "EvidenceCount"). Statement by
-- statement, so an import of 100,000 records writes a few rows. A deleted dataset's counts go with
-- it (cascade): records deleted with it write none.
-- Fired by triggers/Record.Record_count_evidence_{insert,delete}.sql.
CREATE OR REPLACE FUNCTION verity_count_records_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "EvidenceCountDelta" ("datasetId", language, reasons, delta)
    SELECT "datasetId", language, "evidenceReasons", count(*) FROM new_rows
    WHERE "evidenceReasons" <> 0 GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO "EvidenceCountDelta" ("datasetId", language, reasons, delta)
    SELECT o."datasetId", o.language, o."evidenceReasons", -count(*) FROM old_rows o
    WHERE o."evidenceReasons" <> 0 AND EXISTS (SELECT 1 FROM "Dataset" d WHERE d.id = o."datasetId")
    GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END
$$;

-- prisma/sql/functions/verity_fold_campaign_evidence_counts.sql
-- Moves a campaign's rows of "CampaignEvidenceCountDelta" into its kept counts
-- ("CampaignEvidenceCount"), in one statement, as functions/verity_fold_evidence_counts.sql does for
-- a dataset: reads see the counts before the fold or after it; folds of one campaign are serialised
-- by a transaction-level advisory lock, and one that finds it taken returns false at once.
-- Called by lib/server/evidence/reasons.ts when a count read summed many delta rows.
CREATE OR REPLACE FUNCTION verity_fold_campaign_evidence_counts(campaign_id text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  -- Lock class 0x56454332 ('VEC2'): folds of campaign counts.
  IF NOT pg_try_advisory_xact_lock(1447379762, hashtext(campaign_id)) THEN
    RETURN false;
  END IF;
  WITH folded AS (
    DELETE FROM "CampaignEvidenceCountDelta" WHERE "campaignId" = campaign_id RETURNING language, reasons, delta
  )
  INSERT INTO "CampaignEvidenceCount" ("campaignId", language, reasons, items)
  SELECT campaign_id, language, reasons, sum(delta) FROM folded
  GROUP BY language, reasons HAVING sum(delta) <> 0 ORDER BY language, reasons
  ON CONFLICT ("campaignId", language, reasons) DO UPDATE SET items = "CampaignEvidenceCount".items + EXCLUDED.items;
  RETURN true;
END
$$;

-- prisma/sql/functions/verity_fold_evidence_counts.sql
-- Moves a dataset's rows of "EvidenceCountDelta" into its kept counts ("EvidenceCount"), in one
-- statement: the delta rows its snapshot sees are deleted and their sums per language and mask added
-- to the kept rows, so a read (one statement too) sees the counts before the fold or after it, never
-- half. Delta rows inserted meanwhile are not seen and wait for the next fold. Folds of one dataset
-- are serialised by a transaction-level advisory lock; one that finds it taken returns false at once
-- (the other is folding). Only folds write "EvidenceCount", so writers of records never wait here.
-- Called by lib/server/evidence/reasons.ts when a count read summed many delta rows.
CREATE OR REPLACE FUNCTION verity_fold_evidence_counts(dataset_id text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  -- Lock class 0x56454331 ('VEC1'): folds of dataset counts.
  IF NOT pg_try_advisory_xact_lock(1447379761, hashtext(dataset_id)) THEN
    RETURN false;
  END IF;
  WITH folded AS (
    DELETE FROM "EvidenceCountDelta" WHERE "datasetId" = dataset_id RETURNING language, reasons, delta
  )
  INSERT INTO "EvidenceCount" ("datasetId", language, reasons, records)
  SELECT dataset_id, language, reasons, sum(delta) FROM folded
  GROUP BY language, reasons HAVING sum(delta) <> 0 ORDER BY language, reasons
  ON CONFLICT ("datasetId", language, reasons) DO UPDATE SET records = "EvidenceCount".records + EXCLUDED.records;
  RETURN true;
END
$$;

-- prisma/sql/functions/verity_item_evidence_changed.sql
-- A campaign item's evidence reasons, gold flag or language moved: its campaign's kept count (items
-- that are not gold) moves it from the old mask to the new, as two rows of
-- "CampaignEvidenceCountDelta" (-1 and +1; inserted, so no writer waits on another here).
-- Fired by triggers/CampaignItem.CampaignItem_evidence_changed.sql.
CREATE OR REPLACE FUNCTION verity_item_evidence_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CampaignEvidenceCountDelta" ("campaignId", language, reasons, delta)
  SELECT d."campaignId", d.language, d.reasons, d.delta
  FROM (VALUES (OLD."campaignId", OLD.language, OLD."evidenceReasons", OLD.gold, -1),
               (NEW."campaignId", NEW.language, NEW."evidenceReasons", NEW.gold, 1))
       AS d("campaignId", language, reasons, gold, delta)
  WHERE d.reasons <> 0 AND NOT d.gold;
  RETURN NULL;
END
$$;

-- prisma/sql/functions/verity_record_evidence_changed.sql
-- A record's evidence reasons (or its dataset or language) moved: its dataset's kept count moves one
-- record from the old mask to the new, as two rows of "EvidenceCountDelta" (-1 and +1; inserted,
-- never updated, so two writers moving records between the same masks never wait on each other
-- here), and its campaign items carry the new mask ("CampaignItem"."evidenceReasons", whose own
-- trigger keeps the campaigns' counts).
-- Fired by triggers/Record.Record_evidence_changed.sql.
CREATE OR REPLACE FUNCTION verity_record_evidence_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "EvidenceCountDelta" ("datasetId", language, reasons, delta)
  SELECT d."datasetId", d.language, d.reasons, d.delta
  FROM (VALUES (OLD."datasetId", OLD.language, OLD."evidenceReasons", -1),
               (NEW."datasetId", NEW.language, NEW."evidenceReasons", 1)) AS d("datasetId", language, reasons, delta)
  WHERE d.reasons <> 0;
  IF OLD."evidenceReasons" IS DISTINCT FROM NEW."evidenceReasons" THEN
    UPDATE "CampaignItem" SET "evidenceReasons" = NEW."evidenceReasons" WHERE "recordId" = NEW.id;
  END IF;
  RETURN NULL;
END
$$;
