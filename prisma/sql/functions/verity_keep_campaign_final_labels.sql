-- Keeps the final-label rows of the labelled items of some campaigns (a rule or taxonomy change
-- moves only those), through functions/verity_keep_final_labels.sql.
CREATE OR REPLACE FUNCTION verity_keep_campaign_final_labels(campaign_ids text[]) RETURNS void
LANGUAGE sql AS $$
  SELECT verity_keep_final_labels(ARRAY(
    SELECT id FROM "CampaignItem" WHERE "campaignId" = ANY(campaign_ids) AND "labelCount" > 0));
$$;
