-- Counts again who labelled the given campaigns' counted (non-gold) items, into
-- "CampaignAnnotator".
CREATE OR REPLACE FUNCTION verity_count_campaign_annotators(campaign_ids text[]) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM "CampaignAnnotator" WHERE "campaignId" = ANY(campaign_ids);
  INSERT INTO "CampaignAnnotator" ("campaignId", "userId", labels)
  SELECT i."campaignId", a."userId", count(*) FROM "Annotation" a JOIN "CampaignItem" i ON i.id = a."itemId"
  WHERE i."campaignId" = ANY(campaign_ids) AND NOT i.gold AND EXISTS (SELECT 1 FROM "Campaign" c WHERE c.id = i."campaignId")
  GROUP BY 1, 2;
$$;
