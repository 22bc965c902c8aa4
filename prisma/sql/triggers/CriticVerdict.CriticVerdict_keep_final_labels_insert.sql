-- After INSERT on "CriticVerdict" (each statement): keeps the final-label row of the items it
-- touches on "CampaignItem". Runs functions/verity_critics_changed.sql.
CREATE TRIGGER "CriticVerdict_keep_final_labels_insert" AFTER INSERT ON "CriticVerdict"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_critics_changed();
