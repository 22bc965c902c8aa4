-- Each item's label counters ("labelCount", "validCount") are kept by the same trigger that keeps
-- its final label, in the statement that writes the labels. Before, the submit path incremented the
-- counters itself after inserting the label, so one submit recomputed its item's final label twice:
-- once for the label (with the old counters) and once more for the counters. Now a write of labels
-- moves the counters and recomputes each touched item once, and the counters stay right for writes
-- the app does not make itself (a user's labels removed with the user, labels written in SQL).

CREATE OR REPLACE FUNCTION verity_annotations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    touched := ARRAY(SELECT DISTINCT "itemId" FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    touched := ARRAY(SELECT DISTINCT "itemId" FROM old_rows);
  ELSE
    touched := ARRAY(
      SELECT DISTINCT x FROM new_rows n JOIN old_rows o ON o.id = n.id CROSS JOIN LATERAL (VALUES (n."itemId"), (o."itemId")) v(x)
      WHERE (n.valid, n.categories, n."needsReview", n."itemId") IS DISTINCT FROM (o.valid, o.categories, o."needsReview", o."itemId"));
  END IF;
  IF cardinality(touched) = 0 THEN RETURN NULL; END IF;

  -- The items are locked in id order before the counters move, as verity_keep_final_labels locks them.
  PERFORM 1 FROM "CampaignItem" WHERE id = ANY(touched) ORDER BY id FOR UPDATE;
  IF TG_OP = 'INSERT' THEN
    UPDATE "CampaignItem" i SET "labelCount" = i."labelCount" + d.n, "validCount" = i."validCount" + d.n_valid
    FROM (SELECT "itemId", count(*)::int AS n, (count(*) FILTER (WHERE valid))::int AS n_valid
          FROM new_rows GROUP BY 1) d
    WHERE i.id = d."itemId";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "CampaignItem" i SET "labelCount" = i."labelCount" - d.n, "validCount" = i."validCount" - d.n_valid
    FROM (SELECT "itemId", count(*)::int AS n, (count(*) FILTER (WHERE valid))::int AS n_valid
          FROM old_rows GROUP BY 1) d
    WHERE i.id = d."itemId";
  ELSE
    UPDATE "CampaignItem" i SET "labelCount" = i."labelCount" + d.n, "validCount" = i."validCount" + d.n_valid
    FROM (SELECT item_id, sum(n)::int AS n, sum(n_valid)::int AS n_valid
          FROM (SELECT "itemId" AS item_id, 1 AS n, valid::int AS n_valid FROM new_rows
                UNION ALL SELECT "itemId", -1, -(valid::int) FROM old_rows) moved
          GROUP BY 1) d
    WHERE i.id = d.item_id AND (d.n, d.n_valid) <> (0, 0);
  END IF;
  PERFORM verity_keep_final_labels(touched);
  RETURN NULL;
END
$$;

-- The counters move only with the labels now, so an item's own trigger is left with its gold flag.
DROP TRIGGER "CampaignItem_keep_final_labels" ON "CampaignItem";
CREATE TRIGGER "CampaignItem_keep_final_labels" AFTER UPDATE OF gold ON "CampaignItem"
  FOR EACH ROW WHEN (OLD.gold IS DISTINCT FROM NEW.gold)
  EXECUTE FUNCTION verity_item_changed();

-- Counters left behind by labels removed without the app (a deleted user's) are counted again.
DO $$
DECLARE
  recounted text[];
BEGIN
  CREATE TEMP TABLE counted ON COMMIT DROP AS
    SELECT i.id, count(a.id)::int AS n, (count(a.id) FILTER (WHERE a.valid))::int AS n_valid
    FROM "CampaignItem" i LEFT JOIN "Annotation" a ON a."itemId" = i.id
    GROUP BY i.id, i."labelCount", i."validCount"
    HAVING (i."labelCount", i."validCount") IS DISTINCT FROM (count(a.id)::int, (count(a.id) FILTER (WHERE a.valid))::int);
  recounted := ARRAY(SELECT id FROM counted ORDER BY id);
  UPDATE "CampaignItem" i SET "labelCount" = c.n, "validCount" = c.n_valid FROM counted c WHERE c.id = i.id;
  PERFORM verity_keep_final_labels(recounted);
  DROP TABLE counted;
END
$$;
