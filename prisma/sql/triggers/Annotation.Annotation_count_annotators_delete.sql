-- After DELETE on "Annotation" (each statement): keeps "CampaignAnnotator" (who labelled each
-- campaign). Runs functions/verity_annotators_changed.sql.
CREATE TRIGGER "Annotation_count_annotators_delete" AFTER DELETE ON "Annotation"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_annotators_changed();
