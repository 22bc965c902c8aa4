-- After UPDATE on "Annotation" (each statement): keeps the label counters and the final-label row
-- of the items the labels belong to on "CampaignItem". Runs functions/verity_annotations_changed.sql.
CREATE TRIGGER "Annotation_keep_final_labels_update" AFTER UPDATE ON "Annotation"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_annotations_changed();
