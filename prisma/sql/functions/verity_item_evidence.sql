-- A new campaign item takes its record's evidence reasons ("Record"."evidenceReasons").
-- Fired by triggers/CampaignItem.CampaignItem_keep_evidence.sql.
CREATE OR REPLACE FUNCTION verity_item_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- FOR SHARE: a transaction writing the record's evidence has committed before this reads its
  -- mask, and one that starts later waits for this item, then updates it too
  -- (functions/verity_record_evidence_changed.sql). A plain read took the mask from before a
  -- concurrent write, which then missed the new item (evidence-counts.int.test.ts).
  NEW."evidenceReasons" := coalesce((SELECT "evidenceReasons" FROM "Record" WHERE id = NEW."recordId" FOR SHARE), 0);
  RETURN NEW;
END
$$;
