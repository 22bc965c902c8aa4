-- After DELETE on "Solution" (each statement): notes in "CampaignChange" the campaigns whose
-- agreement figures change. Runs functions/verity_note_record_changes.sql.
CREATE TRIGGER "Solution_note_changes_delete" AFTER DELETE ON "Solution"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();
