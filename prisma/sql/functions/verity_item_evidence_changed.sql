-- A campaign item's evidence reasons, gold flag or language moved: its campaign's kept count (items
-- that are not gold) moves it from the old mask to the new, as two rows of
-- "CampaignEvidenceCountDelta" (-1 and +1; inserted, so no writer waits on another here).
-- Fired by triggers/CampaignItem.CampaignItem_evidence_changed.sql.
CREATE OR REPLACE FUNCTION verity_item_evidence_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CampaignEvidenceCountDelta" ("campaignId", language, reasons, delta)
  SELECT d."campaignId", d.language, d.reasons, d.delta
  FROM (VALUES (OLD."campaignId", OLD.language, OLD."evidenceReasons", OLD.gold, -1),
               (NEW."campaignId", NEW.language, NEW."evidenceReasons", NEW.gold, 1))
       AS d("campaignId", language, reasons, gold, delta)
  WHERE d.reasons <> 0 AND NOT d.gold;
  RETURN NULL;
END
$$;
