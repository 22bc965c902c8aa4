-- A campaign item's evidence reasons, gold flag or language moved: its campaign's kept count
-- ("CampaignEvidenceCount", items that are not gold) moves it from the old mask to the new, the two
-- rows locked in mask order (see functions/verity_record_evidence_changed.sql).
-- Fired by triggers/CampaignItem.CampaignItem_evidence_changed.sql.
CREATE OR REPLACE FUNCTION verity_item_evidence_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CampaignEvidenceCount" ("campaignId", language, reasons, items)
  SELECT d."campaignId", d.language, d.reasons, d.delta
  FROM (VALUES (OLD."campaignId", OLD.language, OLD."evidenceReasons", OLD.gold, -1),
               (NEW."campaignId", NEW.language, NEW."evidenceReasons", NEW.gold, 1))
       AS d("campaignId", language, reasons, gold, delta)
  WHERE d.reasons <> 0 AND NOT d.gold
  ORDER BY d."campaignId", d.language, d.reasons
  ON CONFLICT ("campaignId", language, reasons) DO UPDATE SET items = "CampaignEvidenceCount".items + EXCLUDED.items;
  RETURN NULL;
END
$$;
