-- After DELETE on "Record" (each statement): the deleted records leave their dataset's evidence
-- counts. Runs functions/verity_count_records_evidence.sql.
CREATE TRIGGER "Record_count_evidence_delete" AFTER DELETE ON "Record"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_count_records_evidence();
