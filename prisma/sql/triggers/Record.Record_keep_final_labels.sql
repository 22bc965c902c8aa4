-- After UPDATE OF "executableValid" on "Record" (each row, when the columns changed): keeps the
-- final-label row of the items it touches on "CampaignItem". Runs
-- functions/verity_record_execution_changed.sql.
CREATE TRIGGER "Record_keep_final_labels" AFTER UPDATE OF "executableValid" ON "Record"
  FOR EACH ROW WHEN (OLD."executableValid" IS DISTINCT FROM NEW."executableValid")
  EXECUTE FUNCTION verity_record_execution_changed();
