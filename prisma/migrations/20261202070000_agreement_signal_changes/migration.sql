-- The kept agreement count also holds the signal-vs-people table, which reads more of a record's
-- evidence: whether it is flaky, its mutation analyses and its solutions' runs. Writes to those move
-- the campaigns' data version too. One function for every table keyed by record.
CREATE FUNCTION verity_note_record_changes() RETURNS trigger LANGUAGE plpgsql AS $$
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

DROP TRIGGER "CriticVerdict_note_changes_insert" ON "CriticVerdict";
DROP TRIGGER "CriticVerdict_note_changes_update" ON "CriticVerdict";
DROP TRIGGER "CriticVerdict_note_changes_delete" ON "CriticVerdict";
DROP FUNCTION verity_note_critic_changes();

CREATE TRIGGER "CriticVerdict_note_changes_insert" AFTER INSERT ON "CriticVerdict"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();
CREATE TRIGGER "CriticVerdict_note_changes_update" AFTER UPDATE ON "CriticVerdict"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();
CREATE TRIGGER "CriticVerdict_note_changes_delete" AFTER DELETE ON "CriticVerdict"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();
CREATE TRIGGER "MutationAnalysis_note_changes_insert" AFTER INSERT ON "MutationAnalysis"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();
CREATE TRIGGER "MutationAnalysis_note_changes_update" AFTER UPDATE ON "MutationAnalysis"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();
CREATE TRIGGER "MutationAnalysis_note_changes_delete" AFTER DELETE ON "MutationAnalysis"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();
CREATE TRIGGER "Solution_note_changes_insert" AFTER INSERT ON "Solution"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();
CREATE TRIGGER "Solution_note_changes_update" AFTER UPDATE ON "Solution"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();
CREATE TRIGGER "Solution_note_changes_delete" AFTER DELETE ON "Solution"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();

-- A record's execution result and whether it is flaky.
DROP TRIGGER "Record_note_changes" ON "Record";
CREATE TRIGGER "Record_note_changes" AFTER UPDATE OF "executableValid", flaky ON "Record"
  FOR EACH ROW WHEN ((OLD."executableValid", OLD.flaky) IS DISTINCT FROM (NEW."executableValid", NEW.flaky))
  EXECUTE FUNCTION verity_note_execution_changes();
