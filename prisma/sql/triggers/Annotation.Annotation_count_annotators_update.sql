-- After UPDATE on "Annotation" (each statement): keeps "CampaignAnnotator" (who labelled each
-- campaign). Runs functions/verity_annotators_changed.sql.
CREATE TRIGGER "Annotation_count_annotators_update" AFTER UPDATE ON "Annotation"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_annotators_changed();
