-- Campaign items inserted or deleted: their campaigns' kept counts ("CampaignEvidenceCount", items
-- that are not gold) per language and mask gain or lose them. Statement by statement, so creating a
-- campaign of 100,000 items writes a few rows. A deleted campaign's count rows go with it (cascade):
-- only existing rows lose items.
-- Fired by triggers/CampaignItem.CampaignItem_count_evidence_{insert,delete}.sql.
CREATE OR REPLACE FUNCTION verity_count_items_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "CampaignEvidenceCount" ("campaignId", language, reasons, items)
    SELECT "campaignId", language, "evidenceReasons", count(*) FROM new_rows
    WHERE "evidenceReasons" <> 0 AND NOT gold GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("campaignId", language, reasons) DO UPDATE SET items = "CampaignEvidenceCount".items + EXCLUDED.items;
  ELSE
    UPDATE "CampaignEvidenceCount" c SET items = c.items - gone.n
    FROM (SELECT "campaignId", language, "evidenceReasons" AS reasons, count(*) AS n FROM old_rows
          WHERE "evidenceReasons" <> 0 AND NOT gold GROUP BY 1, 2, 3) gone
    WHERE c."campaignId" = gone."campaignId" AND c.language = gone.language AND c.reasons = gone.reasons;
  END IF;
  RETURN NULL;
END
$$;
