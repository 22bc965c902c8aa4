-- After INSERT on "MutationAnalysis" (each statement): notes in "CampaignChange" the campaigns
-- whose agreement figures change. Runs functions/verity_note_record_changes.sql.
CREATE TRIGGER "MutationAnalysis_note_changes_insert" AFTER INSERT ON "MutationAnalysis"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_record_changes();
