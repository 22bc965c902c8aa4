-- After INSERT on "Annotation" (each statement): notes in "CampaignChange" the campaigns whose
-- agreement figures change. Runs functions/verity_note_annotation_changes.sql.
CREATE TRIGGER "Annotation_note_changes_insert" AFTER INSERT ON "Annotation"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_annotation_changes();
