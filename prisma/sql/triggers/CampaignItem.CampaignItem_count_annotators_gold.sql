-- After UPDATE OF gold on "CampaignItem" (each row, when the columns changed): keeps
-- "CampaignAnnotator" (who labelled each campaign). Runs functions/verity_item_gold_changed.sql.
CREATE TRIGGER "CampaignItem_count_annotators_gold" AFTER UPDATE OF gold ON "CampaignItem"
  FOR EACH ROW WHEN (OLD.gold IS DISTINCT FROM NEW.gold) EXECUTE FUNCTION verity_item_gold_changed();
