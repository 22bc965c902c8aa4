-- After UPDATE on "Record" (each row, when its evidence reasons, dataset or language moved; no
-- column list, as the reasons are set by a BEFORE trigger, which a column list does not see): keeps
-- the dataset's evidence counts and the record's items' masks. Runs
-- functions/verity_record_evidence_changed.sql.
CREATE TRIGGER "Record_evidence_changed" AFTER UPDATE ON "Record"
  FOR EACH ROW WHEN ((OLD."evidenceReasons", OLD."datasetId", OLD.language)
                     IS DISTINCT FROM (NEW."evidenceReasons", NEW."datasetId", NEW.language))
  EXECUTE FUNCTION verity_record_evidence_changed();
