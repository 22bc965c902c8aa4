-- Keeps the final-label row (functions/verity_final_labels_of_items.sql) of the given items on
-- "CampaignItem": locks them in id order, writes the columns that changed, and clears a gold item's.
-- Called by the triggers' functions whenever a write changes an item's row.
CREATE OR REPLACE FUNCTION verity_keep_final_labels(item_ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  locked text[];
BEGIN
  IF item_ids IS NULL OR cardinality(item_ids) = 0 THEN RETURN; END IF;
  locked := ARRAY(SELECT id FROM "CampaignItem" WHERE id = ANY(item_ids) ORDER BY id FOR UPDATE);
  IF cardinality(locked) = 0 THEN RETURN; END IF;
  UPDATE "CampaignItem" i
  SET "finalValid" = f.final_valid, "decidedBy" = f.decided_by, "categorySource" = f.category_source,
      strength = f.strength, "finalCategories" = f.final_categories, flagged = f.flagged,
      "reviewReasons" = f.review_reasons, "reviewReasonCount" = f.review_reason_count
  FROM verity_final_labels_of_items(locked) f
  WHERE f.item_id = i.id AND i.id = ANY(locked)
    AND (i."finalValid", i."decidedBy", i."categorySource", i.strength, i."finalCategories", i.flagged,
         i."reviewReasons", i."reviewReasonCount")
        IS DISTINCT FROM (f.final_valid, f.decided_by, f.category_source, f.strength, f.final_categories,
                          f.flagged, f.review_reasons, f.review_reason_count);
  UPDATE "CampaignItem" i
  SET "finalValid" = NULL, "decidedBy" = NULL, "categorySource" = NULL, strength = 0, "finalCategories" = '{}',
      flagged = false, "reviewReasons" = 0, "reviewReasonCount" = 0
  WHERE i.id = ANY(locked) AND i.gold
    AND (i."finalValid" IS NOT NULL OR i."decidedBy" IS NOT NULL OR i."categorySource" IS NOT NULL OR i.strength <> 0
         OR i."finalCategories" <> '{}' OR i.flagged OR i."reviewReasons" <> 0);
END
$$;
