-- The campaign's final rule decides every verdict of it: keeps the final-label rows of its labelled
-- items.
-- Fired by triggers/Campaign.Campaign_keep_final_labels.sql.
CREATE OR REPLACE FUNCTION verity_campaign_rule_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verity_keep_campaign_final_labels(ARRAY[NEW.id]);
  RETURN NULL;
END
$$;
