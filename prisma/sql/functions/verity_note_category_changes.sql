-- The taxonomy (which category a critic rule maps to) changed: notes its campaigns
-- (functions/verity_note_campaign_changes.sql).
-- Fired by triggers/ErrorCategory.ErrorCategory_note_changes_{insert,update,delete}.sql.
CREATE OR REPLACE FUNCTION verity_note_category_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM verity_note_campaign_changes(ARRAY(SELECT DISTINCT "campaignId" FROM new_rows));
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM verity_note_campaign_changes(ARRAY(SELECT DISTINCT "campaignId" FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
