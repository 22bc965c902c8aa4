-- AlterTable
ALTER TABLE "CampaignItem" ADD COLUMN     "categorySource" TEXT,
ADD COLUMN     "decidedBy" TEXT,
ADD COLUMN     "finalCategories" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "finalValid" BOOLEAN,
ADD COLUMN     "flagged" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "reviewReasonCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reviewReasons" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "strength" INTEGER NOT NULL DEFAULT 0;

-- Every item's row of the final-label relation, kept on the item (the columns above) in the same
-- transaction as every write that changes it, so readers page through an index instead of
-- recomputing 100,000 items per request. verity_final_labels stays the one definition: the
-- triggers below only ever copy its row for the items a write touched, and
-- lib/server/db/final-labels.int.test.ts compares the kept rows with it after random writes.

-- The review queues an item is in, as a bit mask (2^k for QUEUES[k] of lib/review/queues.ts:
-- annotators 1, critic 2, execution 4, flagged 8), `crit` being the critic as the reader may see it.
-- An item with no label or with an adjudication is in none. The one statement of the queues.
CREATE FUNCTION verity_review_reasons(n integer, n_valid integer, adj_valid boolean, final_valid boolean,
                                      crit boolean, exec_valid boolean, flagged boolean) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN n = 0 OR adj_valid IS NOT NULL THEN 0 ELSE
      (CASE WHEN n_valid > 0 AND n_valid < n THEN 1 ELSE 0 END)
    | (CASE WHEN final_valid IS NOT NULL AND crit IS NOT NULL AND final_valid <> crit THEN 2 ELSE 0 END)
    | (CASE WHEN coalesce((final_valid AND exec_valid = false) OR (NOT final_valid AND exec_valid AND crit), false) THEN 4 ELSE 0 END)
    | (CASE WHEN flagged THEN 8 ELSE 0 END)
  END
$$;

-- How many queues a mask names: the queues' order is most reasons first.
CREATE FUNCTION verity_reason_count(reasons integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT bit_count(reasons::bit(32))::integer
$$;

-- The definition, as before, plus the queues it puts the item in (with the critic unhidden).
DROP FUNCTION verity_final_labels(text[]);
CREATE FUNCTION verity_final_labels(campaign_ids text[]) RETURNS TABLE (
  item_id text,
  campaign_id text,
  record_id integer,
  language text,
  "position" integer,
  n integer,
  n_valid integer,
  target integer,
  adj_valid boolean,
  adj_categories text[],
  final_valid boolean,
  decided_by text,
  category_source text,
  strength integer,
  final_categories text[],
  difficulty text,
  critic_pass boolean,
  critic_failed_rules text[],
  exec_valid boolean,
  exec_unavailable boolean,
  flagged boolean,
  review_reasons integer,
  review_reason_count integer
)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT f.*, verity_reason_count(f.reasons) FROM (
    SELECT i.id, i."campaignId", i."recordId", i.language, i.position, i."labelCount", i."validCount", i.target,
           adj.valid, adj.categories,
           verity_final_valid(c."finalRule", i."labelCount", i."validCount", adj.valid),
           verity_decided_by(c."finalRule", i."labelCount", i."validCount", adj.valid),
           -- categorySource: the adjudicator's categories, those of the annotators who said Invalid, or none.
           CASE
             WHEN adj.valid IS NOT NULL THEN 'adjudication'
             WHEN verity_final_valid(c."finalRule", i."labelCount", i."validCount", adj.valid) = false THEN 'invalid-labels'
           END,
           -- evidenceStrength: which campaign's label a record keeps across campaigns.
           CASE
             WHEN verity_final_valid(c."finalRule", i."labelCount", i."validCount", adj.valid) IS NULL THEN
               CASE WHEN i."labelCount" > 0 THEN 1 ELSE 0 END
             ELSE CASE WHEN adj.valid IS NOT NULL THEN 2000000 ELSE 1000000 END
                  + CASE WHEN verity_final_valid(c."finalRule", i."labelCount", i."validCount", adj.valid)
                         THEN i."validCount" ELSE i."labelCount" - i."validCount" END
           END,
           -- finalLabel's categories: the adjudicator's as given; else, on an Invalid verdict, the sorted
           -- union of the invalidating categories of the Invalid labels.
           CASE
             WHEN adj.valid IS NOT NULL THEN adj.categories
             WHEN verity_final_valid(c."finalRule", i."labelCount", i."validCount", adj.valid) = false THEN
               ARRAY(SELECT DISTINCT k.key COLLATE "C" FROM "Annotation" a CROSS JOIN unnest(a.categories) AS k(key)
                     JOIN "ErrorCategory" ec ON ec."campaignId" = i."campaignId" AND ec.key = k.key AND ec.invalidating
                     WHERE a."itemId" = i.id AND NOT a.valid ORDER BY 1)
             ELSE '{}'::text[]
           END,
           r.difficulty, cv."overallPass", cv."failedRules", r."executableValid",
           r."verificationOutcome" = 'UNAVAILABLE',
           EXISTS (SELECT 1 FROM "Annotation" a WHERE a."itemId" = i.id AND a."needsReview"),
           verity_review_reasons(i."labelCount", i."validCount", adj.valid,
                                 verity_final_valid(c."finalRule", i."labelCount", i."validCount", adj.valid),
                                 cv."overallPass", r."executableValid",
                                 EXISTS (SELECT 1 FROM "Annotation" a WHERE a."itemId" = i.id AND a."needsReview"))
    FROM "CampaignItem" i
    JOIN "Campaign" c ON c.id = i."campaignId"
    LEFT JOIN "Adjudication" adj ON adj."itemId" = i.id
    LEFT JOIN "Record" r ON r.id = i."recordId"
    LEFT JOIN "CriticVerdict" cv ON cv."recordId" = i."recordId"
    WHERE i."campaignId" = ANY(campaign_ids) AND NOT i.gold
  ) f(item_id, campaign_id, record_id, language, "position", n, n_valid, target, adj_valid, adj_categories,
      final_valid, decided_by, category_source, strength, final_categories, difficulty, critic_pass,
      critic_failed_rules, exec_valid, exec_unavailable, flagged, reasons)
$$;

-- The same relation read from the kept columns: what every reader reads. The evidence beside the
-- verdict (critic, execution, difficulty, adjudication) is joined as it stands; PostgreSQL removes
-- a join whose columns the caller does not read.
CREATE FUNCTION verity_kept_final_labels(campaign_ids text[]) RETURNS TABLE (
  item_id text,
  campaign_id text,
  record_id integer,
  language text,
  "position" integer,
  n integer,
  n_valid integer,
  target integer,
  adj_valid boolean,
  adj_categories text[],
  final_valid boolean,
  decided_by text,
  category_source text,
  strength integer,
  final_categories text[],
  difficulty text,
  critic_pass boolean,
  critic_failed_rules text[],
  exec_valid boolean,
  exec_unavailable boolean,
  flagged boolean,
  review_reasons integer,
  review_reason_count integer
)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT i.id, i."campaignId", i."recordId", i.language, i.position, i."labelCount", i."validCount", i.target,
         adj.valid, adj.categories, i."finalValid", i."decidedBy", i."categorySource", i.strength,
         coalesce(i."finalCategories", '{}'), r.difficulty, cv."overallPass", cv."failedRules", r."executableValid",
         r."verificationOutcome" = 'UNAVAILABLE', i.flagged, i."reviewReasons", i."reviewReasonCount"
  FROM "CampaignItem" i
  LEFT JOIN "Adjudication" adj ON adj."itemId" = i.id
  LEFT JOIN "Record" r ON r.id = i."recordId"
  LEFT JOIN "CriticVerdict" cv ON cv."recordId" = i."recordId"
  WHERE i."campaignId" = ANY(campaign_ids) AND NOT i.gold
$$;

-- Copies the relation's rows of the given items onto them. The items are locked first (in id order)
-- and the copy is a later statement, so it reads with a snapshot taken after every concurrent writer
-- of these items committed: of two transactions touching one item, the one that commits last copies
-- a row that sees both. Gold items (outside the relation) go back to a fresh item's row.
CREATE FUNCTION verity_keep_final_labels(item_ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  locked text[];
  campaigns text[];
BEGIN
  IF item_ids IS NULL OR cardinality(item_ids) = 0 THEN RETURN; END IF;
  SELECT array_agg(l.id), array_agg(DISTINCT l."campaignId") INTO locked, campaigns
  FROM (SELECT id, "campaignId" FROM "CampaignItem" WHERE id = ANY(item_ids) ORDER BY id FOR UPDATE) l;
  IF locked IS NULL THEN RETURN; END IF;
  UPDATE "CampaignItem" i
  SET "finalValid" = f.final_valid, "decidedBy" = f.decided_by, "categorySource" = f.category_source,
      strength = f.strength, "finalCategories" = f.final_categories, flagged = f.flagged,
      "reviewReasons" = f.review_reasons, "reviewReasonCount" = f.review_reason_count
  FROM verity_final_labels(campaigns) f
  WHERE f.item_id = i.id AND i.id = ANY(locked) AND f.item_id = ANY(locked)
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

-- The labelled items of some campaigns (a rule or taxonomy change moves only those).
CREATE FUNCTION verity_keep_campaign_final_labels(campaign_ids text[]) RETURNS void
LANGUAGE sql AS $$
  SELECT verity_keep_final_labels(ARRAY(
    SELECT id FROM "CampaignItem" WHERE "campaignId" = ANY(campaign_ids) AND "labelCount" > 0));
$$;

-- The writes that change a row of the relation, each with the items it touches.

-- Label counters (the submit path keeps them) and the gold flag.
CREATE FUNCTION verity_item_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verity_keep_final_labels(ARRAY[NEW.id]);
  RETURN NULL;
END
$$;
CREATE TRIGGER "CampaignItem_keep_final_labels" AFTER UPDATE OF "labelCount", "validCount", gold ON "CampaignItem"
  FOR EACH ROW WHEN ((OLD."labelCount", OLD."validCount", OLD.gold) IS DISTINCT FROM (NEW."labelCount", NEW."validCount", NEW.gold))
  EXECUTE FUNCTION verity_item_changed();

-- Labels: their verdict, categories (final categories) and flag; added, changed or removed.
CREATE FUNCTION verity_annotations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM verity_keep_final_labels(ARRAY(SELECT DISTINCT "itemId" FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM verity_keep_final_labels(ARRAY(SELECT DISTINCT "itemId" FROM old_rows));
  ELSE
    PERFORM verity_keep_final_labels(ARRAY(
      SELECT x FROM new_rows n JOIN old_rows o ON o.id = n.id CROSS JOIN LATERAL (VALUES (n."itemId"), (o."itemId")) v(x)
      WHERE (n.valid, n.categories, n."needsReview", n."itemId") IS DISTINCT FROM (o.valid, o.categories, o."needsReview", o."itemId")));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "Annotation_keep_final_labels_insert" AFTER INSERT ON "Annotation"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_annotations_changed();
CREATE TRIGGER "Annotation_keep_final_labels_update" AFTER UPDATE ON "Annotation"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_annotations_changed();
CREATE TRIGGER "Annotation_keep_final_labels_delete" AFTER DELETE ON "Annotation"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_annotations_changed();

-- Adjudications: decided, revised or removed.
CREATE FUNCTION verity_adjudications_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER "Adjudication_keep_final_labels_insert" AFTER INSERT ON "Adjudication"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_adjudications_changed();
CREATE TRIGGER "Adjudication_keep_final_labels_update" AFTER UPDATE ON "Adjudication"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_adjudications_changed();
CREATE TRIGGER "Adjudication_keep_final_labels_delete" AFTER DELETE ON "Adjudication"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_adjudications_changed();

-- The critic's verdict on a record moves the critic and execution queues of its items.
CREATE FUNCTION verity_critics_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER "CriticVerdict_keep_final_labels_insert" AFTER INSERT ON "CriticVerdict"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_critics_changed();
CREATE TRIGGER "CriticVerdict_keep_final_labels_update" AFTER UPDATE ON "CriticVerdict"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_critics_changed();
CREATE TRIGGER "CriticVerdict_keep_final_labels_delete" AFTER DELETE ON "CriticVerdict"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_critics_changed();

-- A record's execution result (verification) moves the execution queue of its items. Row by row
-- with a WHEN: records are wide, and most of their updates do not touch it.
CREATE FUNCTION verity_record_execution_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verity_keep_final_labels(ARRAY(SELECT id FROM "CampaignItem" WHERE "recordId" = NEW.id AND "labelCount" > 0));
  RETURN NULL;
END
$$;
CREATE TRIGGER "Record_keep_final_labels" AFTER UPDATE OF "executableValid" ON "Record"
  FOR EACH ROW WHEN (OLD."executableValid" IS DISTINCT FROM NEW."executableValid")
  EXECUTE FUNCTION verity_record_execution_changed();

-- The campaign's final rule decides every verdict of it.
CREATE FUNCTION verity_campaign_rule_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verity_keep_campaign_final_labels(ARRAY[NEW.id]);
  RETURN NULL;
END
$$;
CREATE TRIGGER "Campaign_keep_final_labels" AFTER UPDATE OF "finalRule" ON "Campaign"
  FOR EACH ROW WHEN (OLD."finalRule" IS DISTINCT FROM NEW."finalRule")
  EXECUTE FUNCTION verity_campaign_rule_changed();

-- Which categories invalidate decides the final categories of its Invalid verdicts.
CREATE FUNCTION verity_categories_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM verity_keep_campaign_final_labels(ARRAY(SELECT DISTINCT "campaignId" FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM verity_keep_campaign_final_labels(ARRAY(SELECT DISTINCT "campaignId" FROM old_rows));
  ELSE
    PERFORM verity_keep_campaign_final_labels(ARRAY(
      SELECT x FROM new_rows n JOIN old_rows o ON o.id = n.id
        CROSS JOIN LATERAL (VALUES (n."campaignId"), (o."campaignId")) v(x)
      WHERE (n.key, n.invalidating, n."campaignId") IS DISTINCT FROM (o.key, o.invalidating, o."campaignId")));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "ErrorCategory_keep_final_labels_insert" AFTER INSERT ON "ErrorCategory"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_categories_changed();
CREATE TRIGGER "ErrorCategory_keep_final_labels_update" AFTER UPDATE ON "ErrorCategory"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_categories_changed();
CREATE TRIGGER "ErrorCategory_keep_final_labels_delete" AFTER DELETE ON "ErrorCategory"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_categories_changed();

-- The rows of the items that exist, in one statement.
UPDATE "CampaignItem" i
SET "finalValid" = f.final_valid, "decidedBy" = f.decided_by, "categorySource" = f.category_source,
    strength = f.strength, "finalCategories" = f.final_categories, flagged = f.flagged,
    "reviewReasons" = f.review_reasons, "reviewReasonCount" = f.review_reason_count
FROM verity_final_labels(ARRAY(SELECT id FROM "Campaign")) f
WHERE f.item_id = i.id
  AND (i."finalValid", i."decidedBy", i."categorySource", i.strength, i."finalCategories", i.flagged,
       i."reviewReasons", i."reviewReasonCount")
      IS DISTINCT FROM (f.final_valid, f.decided_by, f.category_source, f.strength, f.final_categories,
                        f.flagged, f.review_reasons, f.review_reason_count);

-- A review queue page and its counts: the queued items of a campaign in queue order.
CREATE INDEX "CampaignItem_review_queue_idx" ON "CampaignItem" ("campaignId", "reviewReasonCount" DESC, "position")
  INCLUDE ("reviewReasons", language, "recordId") WHERE "reviewReasonCount" > 0 AND NOT gold;
