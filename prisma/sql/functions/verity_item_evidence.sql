-- A new campaign item takes its record's evidence reasons ("Record"."evidenceReasons").
-- Fired by triggers/CampaignItem.CampaignItem_keep_evidence.sql.
CREATE OR REPLACE FUNCTION verity_item_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."evidenceReasons" := coalesce((SELECT "evidenceReasons" FROM "Record" WHERE id = NEW."recordId"), 0);
  RETURN NEW;
END
$$;
