-- After INSERT on "Record" (each statement): the new records join their dataset's evidence counts.
-- Runs functions/verity_count_records_evidence.sql.
CREATE TRIGGER "Record_count_evidence_insert" AFTER INSERT ON "Record"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_count_records_evidence();
