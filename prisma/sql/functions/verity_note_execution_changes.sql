-- A record's execution result or flakiness changed: notes the campaigns holding it
-- (functions/verity_note_campaign_changes.sql). Row by row with a WHEN: records are wide and most
-- updates leave these alone.
-- Fired by triggers/Record.Record_note_changes.sql.
CREATE OR REPLACE FUNCTION verity_note_execution_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verity_note_campaign_changes(ARRAY(SELECT DISTINCT "campaignId" FROM "CampaignItem" WHERE "recordId" = NEW.id));
  RETURN NULL;
END
$$;
