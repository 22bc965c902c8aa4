-- After INSERT on "CampaignItem" (each statement): notes in "CampaignChange" the campaigns whose
-- agreement figures change. Runs functions/verity_note_item_changes.sql.
CREATE TRIGGER "CampaignItem_note_changes_insert" AFTER INSERT ON "CampaignItem"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_item_changes();
