-- After INSERT on "CriticVerdict" (each statement): notes in "CampaignChange" the campaigns whose
-- agreement figures change. Runs functions/verity_note_record_changes.sql.
CREATE TRIGGER "CriticVerdict_note_changes_insert" AFTER INSERT ON "CriticVerdict"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();
