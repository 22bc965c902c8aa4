-- After INSERT on "Adjudication" (each statement): keeps the final-label row of the items it
-- touches on "CampaignItem". Runs functions/verity_adjudications_changed.sql.
CREATE TRIGGER "Adjudication_keep_final_labels_insert" AFTER INSERT ON "Adjudication"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_adjudications_changed();
