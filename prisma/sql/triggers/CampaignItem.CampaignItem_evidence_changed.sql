-- After UPDATE on "CampaignItem" (each row, when its evidence reasons, gold flag, language or
-- campaign moved): keeps the campaign's evidence-queue counts. Runs
-- functions/verity_item_evidence_changed.sql.
CREATE TRIGGER "CampaignItem_evidence_changed" AFTER UPDATE ON "CampaignItem"
  FOR EACH ROW WHEN ((OLD."evidenceReasons", OLD.gold, OLD.language, OLD."campaignId")
                     IS DISTINCT FROM (NEW."evidenceReasons", NEW.gold, NEW.language, NEW."campaignId"))
  EXECUTE FUNCTION verity_item_evidence_changed();
