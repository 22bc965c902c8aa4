-- After DELETE on "CampaignItem" (each statement): notes in "CampaignChange" the campaigns whose
-- agreement figures change. Runs functions/verity_note_item_changes.sql.
CREATE TRIGGER "CampaignItem_note_changes_delete" AFTER DELETE ON "CampaignItem"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_item_changes();
