-- Adjudications decided, revised or removed: keeps the final-label row of their items.
-- Fired by triggers/Adjudication.Adjudication_keep_final_labels_{insert,update,delete}.sql.
CREATE OR REPLACE FUNCTION verity_adjudications_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM verity_keep_final_labels(ARRAY(SELECT DISTINCT "itemId" FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM verity_keep_final_labels(ARRAY(SELECT DISTINCT "itemId" FROM old_rows));
  ELSE
    PERFORM verity_keep_final_labels(ARRAY(
      SELECT x FROM new_rows n JOIN old_rows o ON o.id = n.id CROSS JOIN LATERAL (VALUES (n."itemId"), (o."itemId")) v(x)
      WHERE (n.valid, n.categories, n."itemId") IS DISTINCT FROM (o.valid, o.categories, o."itemId")));
  END IF;
  RETURN NULL;
END
$$;
