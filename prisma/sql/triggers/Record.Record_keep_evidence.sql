-- Before INSERT, and UPDATE OF "mutationScore", flaky, "executableValid", on "Record" (each row):
-- sets the record's "evidenceReasons". Runs functions/verity_keep_record_evidence.sql.
CREATE TRIGGER "Record_keep_evidence" BEFORE INSERT OR UPDATE OF "mutationScore", flaky, "executableValid" ON "Record"
  FOR EACH ROW EXECUTE FUNCTION verity_keep_record_evidence();
