-- Labels added, moved or removed: keeps "CampaignAnnotator" (who labelled each campaign, how many
-- labels) in the transaction of every label. Whether an update moved a label to another item or
-- annotator is a set difference of old and new rows (one hashed pass; an EXISTS over a join compared
-- every new row with every old one).
-- Fired by triggers/Annotation.Annotation_count_annotators_{insert,update,delete}.sql.
CREATE OR REPLACE FUNCTION verity_annotators_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "CampaignAnnotator" ("campaignId", "userId", labels)
    SELECT i."campaignId", n."userId", count(*) FROM new_rows n JOIN "CampaignItem" i ON i.id = n."itemId"
    WHERE NOT i.gold GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("campaignId", "userId") DO UPDATE SET labels = "CampaignAnnotator".labels + EXCLUDED.labels;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "CampaignAnnotator" k SET labels = k.labels - d.n
    FROM (SELECT i."campaignId", o."userId", count(*)::int AS n FROM old_rows o JOIN "CampaignItem" i ON i.id = o."itemId"
          WHERE NOT i.gold GROUP BY 1, 2) d
    WHERE k."campaignId" = d."campaignId" AND k."userId" = d."userId";
    DELETE FROM "CampaignAnnotator" WHERE labels <= 0;
  ELSIF EXISTS (SELECT id, "itemId", "userId" FROM new_rows EXCEPT SELECT id, "itemId", "userId" FROM old_rows) THEN
    -- A label moved to another item or annotator (no writer does this today): recount what it touched.
    PERFORM verity_count_campaign_annotators(ARRAY(
      SELECT DISTINCT i."campaignId" FROM "CampaignItem" i
      WHERE i.id IN (SELECT "itemId" FROM new_rows UNION SELECT "itemId" FROM old_rows)));
  END IF;
  RETURN NULL;
END
$$;
