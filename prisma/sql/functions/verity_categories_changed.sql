-- Which categories invalidate decides the final categories of Invalid verdicts: keeps the
-- final-label rows of the campaigns' labelled items.
-- Fired by triggers/ErrorCategory.ErrorCategory_keep_final_labels_{insert,update,delete}.sql.
CREATE OR REPLACE FUNCTION verity_categories_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM verity_keep_campaign_final_labels(ARRAY(SELECT DISTINCT "campaignId" FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM verity_keep_campaign_final_labels(ARRAY(SELECT DISTINCT "campaignId" FROM old_rows));
  ELSE
    PERFORM verity_keep_campaign_final_labels(ARRAY(
      SELECT x FROM new_rows n JOIN old_rows o ON o.id = n.id
        CROSS JOIN LATERAL (VALUES (n."campaignId"), (o."campaignId")) v(x)
      WHERE (n.key, n.invalidating, n."campaignId") IS DISTINCT FROM (o.key, o.invalidating, o."campaignId")));
  END IF;
  RETURN NULL;
END
$$;
