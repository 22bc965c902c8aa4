-- Evidence keyed by record (critic verdicts, mutation analyses, solutions) changed: the kept
-- agreement count's signal-vs-people table reads it, so the campaigns holding the records are noted
-- (functions/verity_note_campaign_changes.sql). One function for every table keyed by record.
-- Fired by triggers/CriticVerdict.CriticVerdict_note_changes_{insert,update,delete}.sql,
-- triggers/MutationAnalysis.MutationAnalysis_note_changes_{insert,update,delete}.sql,
-- triggers/Solution.Solution_note_changes_{insert,update,delete}.sql.
CREATE OR REPLACE FUNCTION verity_note_record_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM verity_note_campaign_changes(ARRAY(
      SELECT DISTINCT i."campaignId" FROM "CampaignItem" i WHERE i."recordId" IN (SELECT "recordId" FROM new_rows)));
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM verity_note_campaign_changes(ARRAY(
      SELECT DISTINCT i."campaignId" FROM "CampaignItem" i WHERE i."recordId" IN (SELECT "recordId" FROM old_rows)));
  END IF;
  RETURN NULL;
END
$$;
