-- An item's gold flag changed: keep its final-label row (a gold item has none).
-- Fired by triggers/CampaignItem.CampaignItem_keep_final_labels.sql.
CREATE OR REPLACE FUNCTION verity_item_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verity_keep_final_labels(ARRAY[NEW.id]);
  RETURN NULL;
END
$$;
