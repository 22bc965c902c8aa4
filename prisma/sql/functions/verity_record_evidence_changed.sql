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
