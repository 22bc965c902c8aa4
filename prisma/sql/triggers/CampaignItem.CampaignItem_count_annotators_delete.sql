-- After DELETE on "CampaignItem" (each statement): keeps "CampaignAnnotator" (who labelled each
-- campaign). Runs functions/verity_items_removed.sql.
CREATE TRIGGER "CampaignItem_count_annotators_delete" AFTER DELETE ON "CampaignItem"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_items_removed();
