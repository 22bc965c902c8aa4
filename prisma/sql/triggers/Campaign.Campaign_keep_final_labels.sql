-- After UPDATE OF "finalRule" on "Campaign" (each row, when the columns changed): keeps the final-
-- label row of the items it touches on "CampaignItem". Runs
-- functions/verity_campaign_rule_changed.sql.
CREATE TRIGGER "Campaign_keep_final_labels" AFTER UPDATE OF "finalRule" ON "Campaign"
  FOR EACH ROW WHEN (OLD."finalRule" IS DISTINCT FROM NEW."finalRule")
  EXECUTE FUNCTION verity_campaign_rule_changed();
