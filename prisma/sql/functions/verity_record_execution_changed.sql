-- A record's execution result (verification) moves the execution queue of its labelled items: keeps
-- their final-label rows. Row by row with a WHEN: records are wide, and most updates do not touch it.
-- Fired by triggers/Record.Record_keep_final_labels.sql.
CREATE OR REPLACE FUNCTION verity_record_execution_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verity_keep_final_labels(ARRAY(SELECT id FROM "CampaignItem" WHERE "recordId" = NEW.id AND "labelCount" > 0));
  RETURN NULL;
END
$$;
