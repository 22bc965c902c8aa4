-- After INSERT on "Annotation" (each statement): keeps "CampaignAnnotator" (who labelled each
-- campaign). Runs functions/verity_annotators_changed.sql.
CREATE TRIGGER "Annotation_count_annotators_insert" AFTER INSERT ON "Annotation"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_annotators_changed();
