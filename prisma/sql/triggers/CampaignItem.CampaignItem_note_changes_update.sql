-- After UPDATE on "CampaignItem" (each row, when the columns changed): notes in "CampaignChange"
-- the campaigns whose agreement figures change. Runs functions/verity_note_item_changes.sql.
CREATE TRIGGER "CampaignItem_note_changes_update" AFTER UPDATE ON "CampaignItem"
  FOR EACH ROW WHEN ((OLD."finalValid", OLD."finalCategories", OLD.gold, OLD.language, OLD."campaignId")
                     IS DISTINCT FROM (NEW."finalValid", NEW."finalCategories", NEW.gold, NEW.language, NEW."campaignId"))
  EXECUTE FUNCTION verity_note_item_changes();
