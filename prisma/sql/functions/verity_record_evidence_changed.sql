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
