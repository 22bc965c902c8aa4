-- After INSERT on "CampaignItem" (each statement): the new items join their campaign's
-- evidence-queue counts. Runs functions/verity_count_items_evidence.sql.
CREATE TRIGGER "CampaignItem_count_evidence_insert" AFTER INSERT ON "CampaignItem"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_count_items_evidence();
