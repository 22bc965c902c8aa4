-- After UPDATE OF "executableValid", flaky on "Record" (each row, when the columns changed): notes
-- in "CampaignChange" the campaigns whose agreement figures change. Runs
-- functions/verity_note_execution_changes.sql.
CREATE TRIGGER "Record_note_changes" AFTER UPDATE OF "executableValid", flaky ON "Record"
  FOR EACH ROW WHEN ((OLD."executableValid", OLD.flaky) IS DISTINCT FROM (NEW."executableValid", NEW.flaky))
  EXECUTE FUNCTION verity_note_execution_changes();
