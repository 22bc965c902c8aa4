-- After UPDATE on "CriticVerdict" (each statement): notes in "CampaignChange" the campaigns whose
-- agreement figures change. Runs functions/verity_note_record_changes.sql.
CREATE TRIGGER "CriticVerdict_note_changes_update" AFTER UPDATE ON "CriticVerdict"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();
