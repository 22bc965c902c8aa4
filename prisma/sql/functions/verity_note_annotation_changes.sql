-- Labels: any change, their timing and pre-reveal verdicts included (annotator statistics count
-- them), notes their campaigns (functions/verity_note_campaign_changes.sql).
-- Fired by triggers/Annotation.Annotation_note_changes_{insert,update,delete}.sql.
CREATE OR REPLACE FUNCTION verity_note_annotation_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM verity_note_campaign_changes(ARRAY(
      SELECT DISTINCT i."campaignId" FROM "CampaignItem" i WHERE i.id IN (SELECT "itemId" FROM new_rows)));
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM verity_note_campaign_changes(ARRAY(
      SELECT DISTINCT i."campaignId" FROM "CampaignItem" i WHERE i.id IN (SELECT "itemId" FROM old_rows)));
  END IF;
  RETURN NULL;
END
$$;
