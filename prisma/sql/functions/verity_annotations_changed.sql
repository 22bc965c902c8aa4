-- Labels added, changed or removed: keeps the label counters ("labelCount", "validCount") of each
-- touched item, who labelled it and their verdicts ("labellerIds", "labelValids": read back from the
-- labels, ordered by annotator id), and its final-label row, in the statement that writes the
-- labels, so each item is recomputed once per write whoever makes it (the app, a user's labels
-- removed with the user, SQL).
-- Fired by triggers/Annotation.Annotation_keep_final_labels_{insert,update,delete}.sql.
CREATE OR REPLACE FUNCTION verity_annotations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched text[];
  -- Items whose labellers or verdicts moved without a change to their final label: a label handed
  -- to another annotator (no writer of the app does this).
  relabelled text[] := '{}';
BEGIN
  IF TG_OP = 'INSERT' THEN
    touched := ARRAY(SELECT DISTINCT "itemId" FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    touched := ARRAY(SELECT DISTINCT "itemId" FROM old_rows);
  ELSE
    touched := ARRAY(
      SELECT DISTINCT x FROM new_rows n JOIN old_rows o ON o.id = n.id CROSS JOIN LATERAL (VALUES (n."itemId"), (o."itemId")) v(x)
      WHERE (n.valid, n.categories, n."needsReview", n."itemId") IS DISTINCT FROM (o.valid, o.categories, o."needsReview", o."itemId"));
    relabelled := ARRAY(SELECT DISTINCT n."itemId" FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n."userId" <> o."userId");
  END IF;
  IF cardinality(touched) = 0 AND cardinality(relabelled) = 0 THEN RETURN NULL; END IF;

  -- The items are locked in id order before the counters move, as verity_keep_final_labels locks them.
  PERFORM 1 FROM "CampaignItem" WHERE id = ANY(touched) ORDER BY id FOR UPDATE;
  IF TG_OP = 'INSERT' THEN
    UPDATE "CampaignItem" i
    SET "labelCount" = i."labelCount" + d.n, "validCount" = i."validCount" + d.n_valid,
        "labellerIds" = ARRAY(SELECT a."userId" FROM "Annotation" a WHERE a."itemId" = i.id ORDER BY 1),
        "labelValids" = ARRAY(SELECT a.valid FROM "Annotation" a WHERE a."itemId" = i.id ORDER BY a."userId")
    FROM (SELECT "itemId", count(*)::int AS n, (count(*) FILTER (WHERE valid))::int AS n_valid
          FROM new_rows GROUP BY 1) d
    WHERE i.id = d."itemId";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "CampaignItem" i
    SET "labelCount" = i."labelCount" - d.n, "validCount" = i."validCount" - d.n_valid,
        "labellerIds" = ARRAY(SELECT a."userId" FROM "Annotation" a WHERE a."itemId" = i.id ORDER BY 1),
        "labelValids" = ARRAY(SELECT a.valid FROM "Annotation" a WHERE a."itemId" = i.id ORDER BY a."userId")
    FROM (SELECT "itemId", count(*)::int AS n, (count(*) FILTER (WHERE valid))::int AS n_valid
          FROM old_rows GROUP BY 1) d
    WHERE i.id = d."itemId";
  ELSE
    UPDATE "CampaignItem" i
    SET "labelCount" = i."labelCount" + d.n, "validCount" = i."validCount" + d.n_valid,
        "labellerIds" = ARRAY(SELECT a."userId" FROM "Annotation" a WHERE a."itemId" = i.id ORDER BY 1),
        "labelValids" = ARRAY(SELECT a.valid FROM "Annotation" a WHERE a."itemId" = i.id ORDER BY a."userId")
    FROM (SELECT item_id, sum(n)::int AS n, sum(n_valid)::int AS n_valid
          FROM (SELECT "itemId" AS item_id, 1 AS n, valid::int AS n_valid FROM new_rows
                UNION ALL SELECT "itemId", -1, -(valid::int) FROM old_rows) moved
          GROUP BY 1) d
    WHERE i.id = d.item_id AND (d.n, d.n_valid) <> (0, 0);
    UPDATE "CampaignItem" i
    SET "labellerIds" = ARRAY(SELECT a."userId" FROM "Annotation" a WHERE a."itemId" = i.id ORDER BY 1),
        "labelValids" = ARRAY(SELECT a.valid FROM "Annotation" a WHERE a."itemId" = i.id ORDER BY a."userId")
    WHERE i.id = ANY(relabelled);
  END IF;
  IF cardinality(touched) > 0 THEN PERFORM verity_keep_final_labels(touched); END IF;
  RETURN NULL;
END
$$;
