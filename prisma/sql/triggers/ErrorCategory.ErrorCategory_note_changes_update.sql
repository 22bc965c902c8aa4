-- After UPDATE on "ErrorCategory" (each statement): notes in "CampaignChange" the campaigns whose
-- agreement figures change. Runs functions/verity_note_category_changes.sql.
CREATE TRIGGER "ErrorCategory_note_changes_update" AFTER UPDATE ON "ErrorCategory"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_category_changes();
