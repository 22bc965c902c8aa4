-- The critic's verdict on a record moves the critic and execution queues of its labelled items:
-- keeps their final-label rows.
-- Fired by triggers/CriticVerdict.CriticVerdict_keep_final_labels_{insert,update,delete}.sql.
CREATE OR REPLACE FUNCTION verity_critics_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM verity_keep_final_labels(ARRAY(
      SELECT i.id FROM "CampaignItem" i WHERE i."recordId" IN (SELECT "recordId" FROM new_rows) AND i."labelCount" > 0));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM verity_keep_final_labels(ARRAY(
      SELECT i.id FROM "CampaignItem" i WHERE i."recordId" IN (SELECT "recordId" FROM old_rows) AND i."labelCount" > 0));
  ELSE
    PERFORM verity_keep_final_labels(ARRAY(
      SELECT i.id FROM "CampaignItem" i WHERE i."labelCount" > 0 AND i."recordId" IN (
        SELECT x FROM new_rows n JOIN old_rows o ON o."recordId" = n."recordId"
          CROSS JOIN LATERAL (VALUES (n."recordId"), (o."recordId")) v(x)
        WHERE n."overallPass" IS DISTINCT FROM o."overallPass")));
  END IF;
  RETURN NULL;
END
$$;
