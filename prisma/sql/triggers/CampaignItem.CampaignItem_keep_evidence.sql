-- Before INSERT on "CampaignItem" (each row): the item takes its record's evidence reasons. Runs
-- functions/verity_item_evidence.sql.
CREATE TRIGGER "CampaignItem_keep_evidence" BEFORE INSERT ON "CampaignItem"
  FOR EACH ROW EXECUTE FUNCTION verity_item_evidence();
