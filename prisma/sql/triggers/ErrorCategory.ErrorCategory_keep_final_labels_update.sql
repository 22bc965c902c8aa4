-- After UPDATE on "ErrorCategory" (each statement): keeps the final-label row of the items it
-- touches on "CampaignItem". Runs functions/verity_categories_changed.sql.
CREATE TRIGGER "ErrorCategory_keep_final_labels_update" AFTER UPDATE ON "ErrorCategory"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_categories_changed();
