-- Moves a campaign's rows of "CampaignEvidenceCountDelta" into its kept counts
-- ("CampaignEvidenceCount"), in one statement, as functions/verity_fold_evidence_counts.sql does for
-- a dataset: reads see the counts before the fold or after it; folds of one campaign are serialised
-- by a transaction-level advisory lock, and one that finds it taken returns false at once.
-- Called by lib/server/evidence/reasons.ts when a count read summed many delta rows.
CREATE OR REPLACE FUNCTION verity_fold_campaign_evidence_counts(campaign_id text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  -- Lock class 0x56454332 ('VEC2'): folds of campaign counts.
  IF NOT pg_try_advisory_xact_lock(1447379762, hashtext(campaign_id)) THEN
    RETURN false;
  END IF;
  WITH folded AS (
    DELETE FROM "CampaignEvidenceCountDelta" WHERE "campaignId" = campaign_id RETURNING language, reasons, delta
  )
  INSERT INTO "CampaignEvidenceCount" ("campaignId", language, reasons, items)
  SELECT campaign_id, language, reasons, sum(delta) FROM folded
  GROUP BY language, reasons HAVING sum(delta) <> 0 ORDER BY language, reasons
  ON CONFLICT ("campaignId", language, reasons) DO UPDATE SET items = "CampaignEvidenceCount".items + EXCLUDED.items;
  RETURN true;
END
$$;
