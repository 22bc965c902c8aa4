-- An item became gold or stopped being gold: its campaign's "CampaignAnnotator" rows are counted
-- again (gold items are not counted).
-- Fired by triggers/CampaignItem.CampaignItem_count_annotators_gold.sql.
CREATE OR REPLACE FUNCTION verity_item_gold_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verity_count_campaign_annotators(ARRAY[NEW."campaignId"]);
  RETURN NULL;
END
$$;
