-- Campaign items inserted or deleted: their campaigns' kept counts (items that are not gold) gain or
-- lose them, as rows of "CampaignEvidenceCountDelta" per language and mask (inserted, never updated;
-- functions/verity_fold_campaign_evidence_counts.sql moves them into "CampaignEvidenceCount").
-- Statement by statement, so creating a campaign of 100,000 items writes a few rows. A deleted
-- campaign's counts go with it (cascade): items deleted with it write none.
-- Fired by triggers/CampaignItem.CampaignItem_count_evidence_{insert,delete}.sql.
CREATE OR REPLACE FUNCTION verity_count_items_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "CampaignEvidenceCountDelta" ("campaignId", language, reasons, delta)
    SELECT "campaignId", language, "evidenceReasons", count(*) FROM new_rows
    WHERE "evidenceReasons" <> 0 AND NOT gold GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO "CampaignEvidenceCountDelta" ("campaignId", language, reasons, delta)
    SELECT o."campaignId", o.language, o."evidenceReasons", -count(*) FROM old_rows o
    WHERE o."evidenceReasons" <> 0 AND NOT o.gold AND EXISTS (SELECT 1 FROM "Campaign" c WHERE c.id = o."campaignId")
    GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END
$$;
