-- After DELETE on "Adjudication" (each statement): keeps the final-label row of the items it
-- touches on "CampaignItem". Runs functions/verity_adjudications_changed.sql.
CREATE TRIGGER "Adjudication_keep_final_labels_delete" AFTER DELETE ON "Adjudication"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_adjudications_changed();
