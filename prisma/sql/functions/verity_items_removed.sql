-- Removing items cascades to their labels after the items are gone, so their campaigns'
-- "CampaignAnnotator" rows are counted again.
-- Fired by triggers/CampaignItem.CampaignItem_count_annotators_delete.sql.
CREATE OR REPLACE FUNCTION verity_items_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verity_count_campaign_annotators(ARRAY(SELECT DISTINCT "campaignId" FROM old_rows));
  RETURN NULL;
END
$$;
