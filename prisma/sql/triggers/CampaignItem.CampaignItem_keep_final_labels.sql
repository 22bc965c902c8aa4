-- After UPDATE OF gold on "CampaignItem" (each row, when the columns changed): keeps the final-
-- label row of the items it touches on "CampaignItem". Runs functions/verity_item_changed.sql.
CREATE TRIGGER "CampaignItem_keep_final_labels" AFTER UPDATE OF gold ON "CampaignItem"
  FOR EACH ROW WHEN (OLD.gold IS DISTINCT FROM NEW.gold)
  EXECUTE FUNCTION verity_item_changed();
