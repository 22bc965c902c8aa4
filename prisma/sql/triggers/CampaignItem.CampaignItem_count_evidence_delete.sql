-- After DELETE on "CampaignItem" (each statement): the deleted items leave their campaign's
-- evidence-queue counts. Runs functions/verity_count_items_evidence.sql.
CREATE TRIGGER "CampaignItem_count_evidence_delete" AFTER DELETE ON "CampaignItem"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_count_items_evidence();
