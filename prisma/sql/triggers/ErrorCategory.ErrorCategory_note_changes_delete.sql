-- After DELETE on "ErrorCategory" (each statement): notes in "CampaignChange" the campaigns whose
-- agreement figures change. Runs functions/verity_note_category_changes.sql.
CREATE TRIGGER "ErrorCategory_note_changes_delete" AFTER DELETE ON "ErrorCategory"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_category_changes();
