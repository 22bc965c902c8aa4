-- Items added or removed, or their kept final labels, gold flag, language or campaign changed (an
-- adjudication or a rule change reaches the figures through these): notes their campaigns
-- (functions/verity_note_campaign_changes.sql). Row by row with a WHEN on update: claims update items
-- all the time without touching any of it.
-- Fired by triggers/CampaignItem.CampaignItem_note_changes_{insert,update,delete}.sql.
CREATE OR REPLACE FUNCTION verity_note_item_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM verity_note_campaign_changes(ARRAY[NEW."campaignId", OLD."campaignId"]);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM verity_note_campaign_changes(ARRAY(SELECT DISTINCT "campaignId" FROM new_rows));
  ELSE
    PERFORM verity_note_campaign_changes(ARRAY(SELECT DISTINCT "campaignId" FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
